//! `tokar check` on 30 damaged stores (issue #32): a real small store's
//! files are copied and damaged in 30 seeded ways (files truncated, bytes
//! flipped, pages zeroed, files deleted or swapped, sled's blob files
//! deleted, cut or flipped, records replaced by garbage, a snapshot altered,
//! a seat given away...). On each copy the
//! `tokar check` binary finishes within 20 s by itself, never dies of a
//! panic, and either names the problems (one specific line each, the
//! damaged game by number where the damage was to one game) or reports the
//! store readable, and then a backup of the copy holds exactly what the
//! original's does.

mod common;
use common::*;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The bound a check must finish within (it stops itself after 5 s without
/// progress: `TOKAR_CHECK_STALL_SECONDS` below).
const BOUND: Duration = Duration::from_secs(20);

/// A seeded generator for the damage, kept here (SplitMix64) so that the
/// seeds give the same damage whatever generator the engine uses.
struct Seeded(u64);

impl Seeded {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// The format-1 backup fixture: a store of an earlier version, whose outbox
/// holds pictures as bytes (large values, which sled keeps in blob files).
const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/backup-1.backup"
);

/// The original: the format-1 fixture restored (games #1 and #2), then
/// three Arcana games with moves (#3 to #5), a league of three Arachne games
/// (#6 to #8), and a server's setting; closed.
async fn origin() -> PathBuf {
    let dir = fresh_dir("check-damaged-origin");
    tokar_bot::backup::restore::restore_all(Path::new(FIXTURE), &dir).unwrap();
    let e = open(&dir, Some(7)).await;
    for (a, b) in [("alice", "bob"), ("carol", "dave"), ("erin", "fay")] {
        let id = e.start(a, b).await;
        assert!((3..=5).contains(&id));
        for _ in 0..3 {
            e.play_first(id, &[a, b]).await;
        }
    }
    e.ok("@alice /league new game:arachne name:Webs players:@alice @bob @carol")
        .await;
    e.ok("@bob /league accept name:Webs").await;
    e.ok("@carol /league accept name:Webs").await;
    let mut req = request("@owner /server threads:off");
    req.channel.guild = Some(4_242);
    req.manage_server = true;
    assert!(e.table.handle(req).await.iter().all(|r| r.ok));
    let dir = e.dir.clone();
    drop(e);
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// What a run of the binary gave.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs `tokar ARGS` and waits at most [`BOUND`]: panics (the test fails)
/// if it does not finish by then.
fn tokar(args: &[&str], dir: &Path) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tokar"))
        .args(args)
        .arg("--data")
        .arg(dir)
        .env("TOKAR_CHECK_STALL_SECONDS", "5")
        .env_remove("TOKAR_DATA")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let reader = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = r.read_to_string(&mut s);
            s
        })
    };
    let out = reader(Box::new(child.stdout.take().unwrap()));
    let err = reader(Box::new(child.stderr.take().unwrap()));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > BOUND {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "tokar {args:?} on {} did not finish within {BOUND:?}",
                dir.display()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Run {
        code: status.code(),
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

/// The lines of a backup but its header (which holds the time it was taken).
fn backup_lines(dir: &Path, name: &str) -> Vec<String> {
    let file = dir.join(format!("{name}.backup"));
    let run = tokar(&["backup", "--to", file.to_str().unwrap()], dir);
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(&file).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    text.lines().skip(1).map(str::to_owned).collect()
}

fn key(prefix: u8, parts: &[u64]) -> Vec<u8> {
    let mut k = vec![prefix];
    for p in parts {
        k.extend_from_slice(&p.to_be_bytes());
    }
    k
}

/// Changes the copy's database through sled itself (a logical damage).
fn with_db(dir: &Path, f: impl FnOnce(&sled::Db)) {
    let db = sled::open(dir.join("db")).unwrap();
    f(&db);
    db.flush().unwrap();
    drop(db);
    // sled lets go of its lock a moment after the handle closes.
    std::thread::sleep(Duration::from_millis(100));
}

fn edit_record(db: &sled::Db, id: u64, change: impl FnOnce(&mut serde_json::Value)) {
    let k = key(b'g', &[id]);
    let mut rec: serde_json::Value = serde_json::from_slice(&db.get(&k).unwrap().unwrap()).unwrap();
    change(&mut rec);
    db.insert(k, serde_json::to_vec(&rec).unwrap()).unwrap();
}

/// The database's files (sled's `conf`, `db`, `snap.*`), in name order.
fn db_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("db"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

fn named(dir: &Path, name: &str) -> Option<PathBuf> {
    db_files(dir).into_iter().find(|p| {
        p.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with(name))
    })
}

/// A blob file of the database (sled keeps large values there), if any.
fn blob(dir: &Path, rng: &mut Seeded) -> Option<PathBuf> {
    let mut blobs: Vec<PathBuf> = std::fs::read_dir(dir.join("db").join("blobs"))
        .ok()?
        .map(|e| e.unwrap().path())
        .collect();
    blobs.sort();
    let n = blobs.len() as u64;
    (n > 0).then(|| blobs.swap_remove(rng.below(n) as usize))
}

/// Damages the copy at `dir` in the way `seed` picks; returns what was done
/// and, for a damage to one game, the text the report must hold.
fn damage(dir: &Path, seed: u64) -> (String, Option<String>) {
    let mut rng = Seeded(seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ 0x00C0_FFEE);
    let main_file = named(dir, "db").expect("sled's db file");
    let len = std::fs::metadata(&main_file).unwrap().len();
    match seed % 20 {
        0 => {
            let at = rng.below(len);
            let f = std::fs::OpenOptions::new()
                .write(true)
                .open(&main_file)
                .unwrap();
            f.set_len(at).unwrap();
            (format!("db truncated to {at} of {len} bytes"), None)
        }
        1 => {
            let mut bytes = std::fs::read(&main_file).unwrap();
            let n = 1 + rng.below(64);
            for _ in 0..n {
                let at = rng.below(bytes.len() as u64) as usize;
                bytes[at] ^= 1 << rng.below(8);
            }
            std::fs::write(&main_file, bytes).unwrap();
            (format!("{n} bits flipped in db"), None)
        }
        2 => {
            let mut bytes = std::fs::read(&main_file).unwrap();
            let pages = (bytes.len() / 4096).max(1);
            let page = rng.below(pages as u64) as usize * 4096;
            let end = (page + 4096).min(bytes.len());
            bytes[page..end].fill(0);
            std::fs::write(&main_file, bytes).unwrap();
            (format!("page at {page} of db zeroed"), None)
        }
        3 => {
            let files = db_files(dir);
            let f = &files[rng.below(files.len() as u64) as usize];
            std::fs::remove_file(f).unwrap();
            (format!("{} deleted", f.display()), None)
        }
        4 => {
            let files = db_files(dir);
            let a = rng.below(files.len() as u64) as usize;
            let b = (a + 1 + rng.below(files.len() as u64 - 1) as usize) % files.len();
            let tmp = dir.join("swap");
            std::fs::rename(&files[a], &tmp).unwrap();
            std::fs::rename(&files[b], &files[a]).unwrap();
            std::fs::rename(&tmp, &files[b]).unwrap();
            (
                format!("{} and {} swapped", files[a].display(), files[b].display()),
                None,
            )
        }
        5 => match named(dir, "snap") {
            Some(snap) => {
                let l = std::fs::metadata(&snap).unwrap().len();
                let at = rng.below(l);
                let f = std::fs::OpenOptions::new().write(true).open(&snap).unwrap();
                f.set_len(at).unwrap();
                (format!("snapshot file truncated to {at} of {l}"), None)
            }
            None => ("no snapshot file to truncate".into(), None),
        },
        6 => {
            let mut bytes = std::fs::read(&main_file).unwrap();
            let n = 1 + rng.below(512) as usize;
            bytes.extend((0..n).map(|_| rng.next() as u8));
            std::fs::write(&main_file, bytes).unwrap();
            (format!("{n} garbage bytes after db"), None)
        }
        7 => {
            let conf = named(dir, "conf").expect("conf");
            let bytes: Vec<u8> = (0..64).map(|_| rng.next() as u8).collect();
            std::fs::write(&conf, bytes).unwrap();
            ("conf replaced by garbage".into(), None)
        }
        8 => match blob(dir, &mut rng) {
            Some(b) => {
                std::fs::remove_file(&b).unwrap();
                (format!("blob {} deleted", b.display()), None)
            }
            None => ("no blob to delete".into(), None),
        },
        9 => match blob(dir, &mut rng) {
            Some(b) => {
                let l = std::fs::metadata(&b).unwrap().len();
                let at = rng.below(l);
                let f = std::fs::OpenOptions::new().write(true).open(&b).unwrap();
                f.set_len(at).unwrap();
                (format!("blob {} cut to {at} of {l}", b.display()), None)
            }
            None => ("no blob to cut".into(), None),
        },
        10 => match blob(dir, &mut rng) {
            Some(b) => {
                let mut bytes = std::fs::read(&b).unwrap();
                let n = 1 + rng.below(16);
                for _ in 0..n {
                    let at = rng.below(bytes.len() as u64) as usize;
                    bytes[at] ^= 1 << rng.below(8);
                }
                std::fs::write(&b, bytes).unwrap();
                (format!("{n} bits flipped in blob {}", b.display()), None)
            }
            None => ("no blob to flip".into(), None),
        },
        11 => {
            let id = 1 + rng.below(8);
            with_db(dir, |db| {
                db.insert(key(b'g', &[id]), &b"{\"format\":1,\"id\":"[..])
                    .unwrap();
            });
            (
                format!("game #{id}'s record is cut JSON"),
                Some(format!("game #{id}: ")),
            )
        }
        12 => {
            let id = 3 + rng.below(3);
            let seq = rng.below(3);
            with_db(dir, |db| {
                db.insert(key(b'l', &[id, seq]), &b"[garbage]"[..]).unwrap();
            });
            (
                format!("game #{id}'s log entry {seq} is garbage"),
                Some(format!("game #{id}: log entry {}", seq + 1)),
            )
        }
        13 => {
            with_db(dir, |db| {
                let t = db.open_tree("leagues").unwrap();
                t.insert(key(b'L', &[1]), &b"{\"format\":1,\"garbage\":true}"[..])
                    .unwrap();
            });
            (
                "the league's record is garbage".into(),
                Some("leagues key 4c0000000000000001: league record".into()),
            )
        }
        14 => {
            let which = rng.below(3);
            with_db(dir, |db| match which {
                0 => {
                    let t = db.open_tree("servers").unwrap();
                    t.insert(4_242u64.to_be_bytes(), &b"{\"v\":\"9\"}"[..])
                        .unwrap();
                }
                1 => {
                    let k = db.scan_prefix([b'u']).keys().next().unwrap().unwrap();
                    db.insert(k, &b"{}"[..]).unwrap();
                }
                _ => {
                    let k = db.scan_prefix([b'o']).keys().next().unwrap().unwrap();
                    db.insert(k, &b"{\"format\":1}"[..]).unwrap();
                }
            });
            let expect = ["servers key", "user ", "outbox entry "][which as usize];
            (format!("record kind {which} garbage"), Some(expect.into()))
        }
        15 => {
            let id = 3 + rng.below(3);
            with_db(dir, |db| {
                edit_record(db, id, |rec| {
                    let mut snap: serde_json::Value =
                        serde_json::from_str(rec["snapshot"].as_str().unwrap()).unwrap();
                    for cell in snap["state"]["board"].as_array_mut().unwrap() {
                        if cell["owner"] == 1 {
                            *cell = serde_json::Value::Null;
                        }
                    }
                    rec["snapshot"] = serde_json::Value::String(snap.to_string());
                })
            });
            (
                format!("game #{id}'s undead removed from its snapshot"),
                Some(format!("game #{id}: its stored position (snapshot)")),
            )
        }
        16 => {
            let id = 3 + rng.below(3);
            with_db(dir, |db| {
                edit_record(db, id, |rec| {
                    rec["members"][0]["user"]["id"] = serde_json::json!(999_999);
                })
            });
            (
                format!("game #{id}'s first seat given to user 999999"),
                Some(format!("game #{id}: log entry ")),
            )
        }
        17 => {
            let id = 3 + rng.below(3);
            with_db(dir, |db| {
                db.remove(key(b'l', &[id, 1])).unwrap();
            });
            (
                format!("game #{id}'s second log entry removed"),
                Some(format!("game #{id}: log entry 2 is missing")),
            )
        }
        18 => {
            let id = 3 + rng.below(3);
            let user = user(["alice", "carol", "erin"][id as usize - 3]).id;
            with_db(dir, |db| {
                db.remove(key(b'm', &[user, id])).unwrap();
            });
            (
                format!("game #{id} removed from its creator's index"),
                Some(format!(
                    "game #{id}: missing from the index of user {user}'s games"
                )),
            )
        }
        _ => {
            let marker = dir.join(tokar_bot::marker::FILE);
            let mut text = std::fs::read_to_string(&marker).unwrap();
            text.truncate(rng.below(text.len() as u64) as usize);
            std::fs::write(&marker, text).unwrap();
            ("the marker cut".into(), Some("store.json".into()))
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn check_finishes_and_names_the_damage_of_30_damaged_stores() {
    let origin = origin().await;
    let clean = tokar(&["check"], &origin);
    assert_eq!(clean.code, Some(0), "{}{}", clean.stdout, clean.stderr);
    assert!(clean.stdout.contains(": all readable"), "{}", clean.stdout);
    let original = backup_lines(&origin, "original");
    let mut readable = 0;
    for seed in 0..30u64 {
        let dir = fresh_dir(&format!("check-damaged-{seed}"));
        copy_dir(&origin, &dir);
        let _ = std::fs::remove_dir_all(dir.join("backups"));
        let (what, expected) = damage(&dir, seed);
        let run = tokar(&["check"], &dir);
        let said = format!(
            "seed {seed} ({what}): exit {:?}\nstdout:\n{}\nstderr:\n{}",
            run.code, run.stdout, run.stderr
        );
        // Finished by itself (tokar() panics otherwise), and not by a panic.
        assert!(matches!(run.code, Some(0 | 1)), "{said}");
        if run.stderr.contains("panicked") {
            assert!(
                run.stdout.contains("the database files are damaged"),
                "a panic is caught and reported: {said}"
            );
        }
        if run.code == Some(0) {
            // Reported readable: the damage hit nothing live, so the copy
            // holds exactly what the original does.
            assert!(run.stdout.contains(": all readable"), "{said}");
            assert!(expected.is_none(), "{said}");
            assert_eq!(backup_lines(&dir, "copy"), original, "{said}");
            readable += 1;
            continue;
        }
        // Problems named, each on a line of its own, then the summary.
        let lines: Vec<&str> = run.stdout.lines().collect();
        let summary = lines.iter().find(|l| l.starts_with("checked ")).copied();
        let problems: Vec<&&str> = lines
            .iter()
            .filter(|l| !l.starts_with("checked "))
            .collect();
        let opened = summary.is_some();
        if opened {
            assert!(!problems.is_empty(), "{said}");
            assert!(problems.iter().all(|l| l.len() > 12), "{said}");
        } else {
            // The store could not be opened at all: the reason on stderr.
            assert!(run.stderr.trim().len() > 12, "{said}");
        }
        if let Some(text) = &expected {
            assert!(
                run.stdout.contains(text.as_str()),
                "expected {text:?}: {said}"
            );
        }
        eprintln!(
            "seed {seed}: {what}: {}",
            problems.first().map_or(run.stderr.trim(), |l| l)
        );
    }
    eprintln!("{readable} of 30 damaged copies were reported readable (backup identical)");
}

/// sled panics on some damage (here: a page it needs is in a blob file that
/// is gone). The check catches each panic, reports it, and goes on with
/// what sled still serves: both games are verified.
#[test]
fn sled_panics_are_reported_and_the_check_goes_on() {
    let dir = fresh_dir("check-damaged-sled-panics");
    tokar_bot::backup::restore::restore_all(Path::new(FIXTURE), &dir).unwrap();
    let blobs = dir.join("db").join("blobs");
    let mut removed = 0;
    for b in std::fs::read_dir(&blobs).unwrap() {
        std::fs::remove_file(b.unwrap().path()).unwrap();
        removed += 1;
    }
    assert!(removed > 0, "the fixture's pictures are in a blob file");
    let run = tokar(&["check"], &dir);
    let said = format!("stdout:\n{}\nstderr:\n{}", run.stdout, run.stderr);
    assert_eq!(run.code, Some(1), "{said}");
    // sled either panics on the missing blob (caught and reported) or
    // answers an I/O error, depending on what it reads first.
    assert!(
        run.stdout
            .contains("the database files are damaged: sled failed while reading")
            || run.stdout.contains("No such file or directory"),
        "{said}"
    );
    assert!(run.stdout.contains("checked 2 game(s)"), "{said}");
    // A listing cut short is not taken for missing keys.
    assert!(!run.stdout.contains("missing from the index"), "{said}");
    assert!(!run.stdout.contains("without a game record"), "{said}");
}
