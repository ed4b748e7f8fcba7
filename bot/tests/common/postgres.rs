//! A PostgreSQL server of the tests' own, from Debian's `postgresql` package.
//!
//! The server's folder is under cargo's scratch folder for tests
//! (`target/tmp/tokar-pg-<name>/<process id>`); it listens only on a Unix socket in a
//! folder of its own, with fsync on as in production. PostgreSQL refuses to
//! run as root: when the tests run as root, the server runs as the `postgres`
//! system user the package creates, and owns its folder.
//!
//! [`PgServer`] is the guard: dropping it stops the server. Starting one first
//! stops and removes a server an earlier, killed run left in the same folder.
//! The tests of one binary share a server through [`shared`], started by the
//! first test that needs it and stopped when the last one running lets go.
//!
//! When the package is missing the test fails with the command that installs
//! it: it never skips.
//!
//! Include it with `#[path = "common/postgres.rs"] mod postgres;`.

#![allow(dead_code)]

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;

/// The command that installs what these tests need.
pub const INSTALL: &str = "apt-get install -y postgresql";

/// The port in the socket's name (`.s.PGSQL.<port>`); the socket's folder is
/// the server's own, so servers of other runs do not meet it.
const PORT: u16 = 5432;

/// Where a running server is found: enough to connect and to run `psql`.
#[derive(Clone, Debug)]
pub struct Server {
    bin: PathBuf,
    socket: PathBuf,
    /// The system user the server runs as, when the tests run as root.
    run_as: Option<String>,
}

/// A running server; dropping it stops it (`pg_ctl stop -m fast`).
pub struct PgServer {
    server: Server,
    root: PathBuf,
}

impl std::ops::Deref for PgServer {
    type Target = Server;
    fn deref(&self) -> &Server {
        &self.server
    }
}

/// The newest installed PostgreSQL's binaries (`/usr/lib/postgresql/<v>/bin`).
fn binaries() -> PathBuf {
    binaries_in(Path::new("/usr/lib/postgresql"))
}

/// The binaries of the newest version under `lib` (Debian's layout); panics
/// with the command that installs them when there are none.
pub fn binaries_in(lib: &Path) -> PathBuf {
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir(lib)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse::<u32>().ok()?;
            let bin = entry.path().join("bin");
            (bin.join("initdb").exists() && bin.join("pg_ctl").exists()).then_some((version, bin))
        })
        .collect();
    found.sort();
    match found.pop() {
        Some((_, bin)) => bin,
        None => panic!(
            "these tests need PostgreSQL's server binaries ({}/<version>/bin/initdb), \
             which are not installed: run `{INSTALL}` (or `bash scripts/test.sh`, which does)",
            lib.display()
        ),
    }
}

/// The numeric id of a system user, by `id`.
fn id_of(user: &str, flag: &str) -> u32 {
    let out = Command::new("id")
        .args([flag, user])
        .output()
        .expect("run id");
    assert!(
        out.status.success(),
        "running as root, the tests start PostgreSQL as the `{user}` user, which does not exist: run `{INSTALL}`"
    );
    String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
}

impl Server {
    /// Runs one of the server's programs, as its user when needed.
    fn program(&self, name: &str) -> Command {
        let path = self.bin.join(name);
        match &self.run_as {
            Some(user) => {
                let mut c = Command::new("runuser");
                c.args(["-u", user, "--"]).arg(path);
                c
            }
            None => Command::new(path),
        }
    }

    /// The URL of database `db` on this server.
    pub fn url(&self, db: &str) -> String {
        let socket: String = self
            .socket
            .to_string_lossy()
            .bytes()
            .map(|b| match b {
                b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'.' | b'_' => {
                    (b as char).to_string()
                }
                _ => format!("%{b:02X}"),
            })
            .collect();
        format!("postgres://postgres@{socket}:{PORT}/{db}")
    }

    /// Runs `sql` in database `db` with `psql` and returns what it printed
    /// (unaligned, tuples only), trimmed. Panics when psql fails.
    pub fn psql(&self, db: &str, sql: &str) -> String {
        let out = Command::new(self.bin.join("psql"))
            .args(["-X", "-q", "-tA", "-v", "ON_ERROR_STOP=1", "-U", "postgres"])
            .arg("-h")
            .arg(&self.socket)
            .args(["-p", &PORT.to_string(), "-d", db, "-c", sql])
            .output()
            .expect("run psql");
        assert!(
            out.status.success(),
            "psql {sql:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// An empty database named `db` (dropped first if a test left one), and
    /// its URL.
    pub fn fresh_database(&self, db: &str) -> String {
        self.psql(
            "postgres",
            &format!("DROP DATABASE IF EXISTS \"{db}\" WITH (FORCE)"),
        );
        self.psql("postgres", &format!("CREATE DATABASE \"{db}\""));
        self.url(db)
    }

    /// The URL of an empty store named `name` (a lowercase identifier): a
    /// schema of its own in the `postgres` database, made the connections'
    /// search path. Schemas cost nothing to make, where each new database
    /// copies its template (about 8 MB) through the server's buffers, which
    /// then made stopping it take half a minute on a busy disk.
    pub fn fresh_store(&self, name: &str) -> String {
        self.psql(
            "postgres",
            &format!("DROP SCHEMA IF EXISTS {name} CASCADE; CREATE SCHEMA {name}"),
        );
        format!("{}?options=-c%20search_path%3D{name}", self.url("postgres"))
    }

    /// Runs `sql` in the store `name` made by [`Server::fresh_store`] (see
    /// [`Server::psql`]).
    pub fn psql_in_store(&self, name: &str, sql: &str) -> String {
        self.psql("postgres", &format!("SET search_path TO {name}; {sql}"))
    }
}

fn check(what: &str, out: Output, log: Option<&Path>) {
    if !out.status.success() {
        let log = log
            .and_then(|l| std::fs::read_to_string(l).ok())
            .unwrap_or_default();
        panic!(
            "{what} failed: {}{}\n{log}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Whether process `pid` is running (a killed one may linger as a zombie
/// until its new parent reaps it).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        let state = stat.rsplit_once(')').map(|(_, rest)| rest.trim_start());
        !matches!(state.and_then(|s| s.chars().next()), Some('Z' | 'X') | None)
    })
}

impl Server {
    /// Stops a server a killed run left in `root` (the run could not), and
    /// removes its folder.
    fn stop_leftover(&self, root: &Path) {
        let data = root.join("data");
        if data.join("postmaster.pid").exists() {
            let _ = self
                .program("pg_ctl")
                .args(["stop", "-m", "immediate", "-w", "-s", "-D"])
                .arg(&data)
                .output();
        }
        let _ = std::fs::remove_dir_all(root);
    }
}

impl PgServer {
    /// Starts a new server in `target/tmp/tokar-pg-<name>/<process id>`.
    pub fn start(name: &str) -> PgServer {
        let bin = binaries();
        let root_user = std::fs::metadata("/proc/self")
            .map(|m| m.uid() == 0)
            .unwrap_or(false);
        let run_as = root_user.then(|| "postgres".to_string());
        // One folder per test process, named by its id: runs at once do not
        // meet, and a folder whose process is gone is a killed run's.
        let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("tokar-pg-{name}"));
        let root = base.join(std::process::id().to_string());
        let data = root.join("data");
        let server = Server {
            bin,
            socket: root.join("socket"),
            run_as,
        };
        for entry in std::fs::read_dir(&base).into_iter().flatten().flatten() {
            let gone = entry
                .file_name()
                .to_str()
                .and_then(|n| n.parse::<u32>().ok())
                .is_none_or(|pid| !alive(pid));
            if gone || entry.path() == root {
                server.stop_leftover(&entry.path());
            }
        }
        std::fs::create_dir_all(&server.socket).unwrap();
        std::fs::create_dir_all(&data).unwrap();
        if let Some(user) = &server.run_as {
            let (uid, gid) = (id_of(user, "-u"), id_of(user, "-g"));
            for dir in [&root, &server.socket, &data] {
                std::os::unix::fs::chown(dir, Some(uid), Some(gid)).unwrap();
            }
        }
        // --no-sync: initdb's own flush of the new cluster (4 s on a busy
        // disk) only guards against the machine crashing before the tests
        // start; the server itself runs with fsync on.
        let init = server
            .program("initdb")
            .args(["--no-sync", "-U", "postgres", "-A", "trust"])
            .args(["-E", "UTF8", "--locale=C", "-D"])
            .arg(&data)
            .output()
            .expect("run initdb");
        check("initdb", init, None);
        let settings = format!(
            "\n# The tests' own server: a private socket only, durable as in production.\n\
             listen_addresses = ''\n\
             unix_socket_directories = '{}'\n\
             port = {PORT}\n\
             fsync = on\n\
             synchronous_commit = on\n\
             max_connections = 200\n",
            server.socket.display()
        );
        let conf = data.join("postgresql.conf");
        let mut text = std::fs::read_to_string(&conf).unwrap();
        text.push_str(&settings);
        std::fs::write(&conf, text).unwrap();
        let log = root.join("server.log");
        let started = server
            .program("pg_ctl")
            .args(["start", "-w", "-t", "60", "-s", "-D"])
            .arg(&data)
            .arg("-l")
            .arg(&log)
            .output()
            .expect("run pg_ctl");
        check("pg_ctl start", started, Some(&log));
        PgServer { server, root }
    }

    /// Stops the server and starts it again, as an operator's restart would:
    /// every open connection is closed.
    pub fn restart(&self) {
        let log = self.root.join("server.log");
        let restarted = self
            .program("pg_ctl")
            .args(["restart", "-m", "fast", "-w", "-t", "60", "-s", "-D"])
            .arg(self.root.join("data"))
            .arg("-l")
            .arg(&log)
            .output()
            .expect("run pg_ctl");
        check("pg_ctl restart", restarted, Some(&log));
    }
}

impl Drop for PgServer {
    fn drop(&mut self) {
        let stopped = self
            .program("pg_ctl")
            .args(["stop", "-m", "fast", "-w", "-s", "-D"])
            .arg(self.root.join("data"))
            .output();
        if matches!(&stopped, Ok(out) if out.status.success()) {
            let _ = std::fs::remove_dir_all(&self.root);
            // The folder of all runs, when no other run is using it.
            if let Some(base) = self.root.parent() {
                let _ = std::fs::remove_dir(base);
            }
        }
    }
}

/// The server the tests of this binary share, and how many hold it.
static SHARED: Mutex<(usize, Option<PgServer>)> = Mutex::new((0, None));

/// A hold on the shared server: the last one dropped stops it.
pub struct Lease(Server);

impl std::ops::Deref for Lease {
    type Target = Server;
    fn deref(&self) -> &Server {
        &self.0
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        let mut shared = SHARED.lock().unwrap_or_else(|p| p.into_inner());
        shared.0 -= 1;
        if shared.0 == 0 {
            // Stopped while holding the lock: a test starting now waits for
            // the folder to be free.
            drop(shared.1.take());
        }
    }
}

/// The server shared by this binary's tests (in `target/tmp/tokar-pg-<name>/…`),
/// started when none is running.
pub fn shared(name: &str) -> Lease {
    let mut shared = SHARED.lock().unwrap_or_else(|p| p.into_inner());
    if shared.1.is_none() {
        shared.1 = Some(PgServer::start(name));
    }
    shared.0 += 1;
    Lease(shared.1.as_ref().unwrap().server.clone())
}
