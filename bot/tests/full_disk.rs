//! A disk that fills up mid-play (issue #32): the data folder on a small
//! tmpfs, filled until the store's writes fail. Every action is either stored
//! and announced once, or refused (with the one-line "could not save" answer)
//! and announced nowhere, while a delivery loop reads the outbox all along;
//! once space is given back, the store takes writes again without a restart,
//! and after a restart every announced action is there.
//!
//! Mounting needs root (the tests run as root); a test that cannot mount
//! fails and says why rather than passing without having tried.

mod common;

use common::{open, Env};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The answer to a write that did not reach the disk (`table::UNWRITABLE`).
const UNWRITABLE: &str = "Tokar could not save this, so nothing changed; try again later.";

/// A tmpfs mounted on a folder of the test's, unmounted when dropped.
struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(name: &str, size: &str) -> Tmpfs {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("tokar-{name}"));
        let _ = Command::new("umount").arg(&dir).status();
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(&dir)
            .output()
            .expect("this test runs `mount` (a small tmpfs) and needs it installed");
        assert!(
            out.status.success(),
            "this test mounts a small tmpfs and needs root (or CAP_SYS_ADMIN): mount said {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
        Tmpfs(dir)
    }

    fn resize(&self, size: &str) {
        let ok = Command::new("mount")
            .args(["-o", &format!("remount,size={size}")])
            .arg(&self.0)
            .status()
            .unwrap()
            .success();
        assert!(ok, "cannot resize the tmpfs");
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

/// Fills the file system of `dir` up to `spare` bytes: the rest is a filler file.
fn fill(dir: &Path, spare: u64) {
    use std::io::Write;
    let path = dir.join("filler");
    let mut f = std::fs::File::create(&path).unwrap();
    let chunk = vec![0xa5u8; 64 * 1024];
    let mut len = 0u64;
    while f.write_all(&chunk).is_ok() {
        len += chunk.len() as u64;
    }
    let _ = f.flush();
    drop(f);
    let f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    f.set_len(len.saturating_sub(spare)).unwrap();
    f.sync_all().unwrap();
}

/// What the delivery loop saw: each entry id delivered, how many times.
type Deliveries = Arc<Mutex<HashMap<u64, u32>>>;

/// Delivers as the console does, all along: reads what is due, "prints" it,
/// removes it. Stops when `stop` is set, after one last pass.
fn deliver(env: &Env, delivered: Deliveries, stop: Arc<AtomicBool>) -> tokio::task::JoinHandle<()> {
    let table = env.table.clone();
    tokio::spawn(async move {
        loop {
            let last = stop.load(Ordering::SeqCst);
            let due = table.outbox_due(usize::MAX).await;
            let ids: Vec<u64> = due.iter().map(|e| e.id).collect();
            {
                let mut d = delivered.lock().unwrap();
                for id in &ids {
                    *d.entry(*id).or_default() += 1;
                }
            }
            // A failed removal is the store's to remember; delivery goes on.
            let _ = table.outbox_delivered_all(ids).await;
            if last {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(2)).await;
        }
    })
}

/// What became of one /play.
enum Played {
    /// Stored, with the outbox entries it made.
    Stored(Vec<u64>),
    /// Refused: the store could not save it.
    Refused,
    /// Not tried: the store could not even be read to choose an action.
    Unread,
}

/// One /play by whoever acts in `game`.
async fn play(env: &Env, game: u64) -> Played {
    let Some(who) = env.to_act(game, &["alice", "bob"]).await else {
        return Played::Unread;
    };
    let Some(action) = env.actions(who, game).await.first().cloned() else {
        return Played::Unread;
    };
    let r = env
        .run(&format!("@{who} /play game:{game} action:\"{action}\""))
        .await;
    if r.len() == 1 && !r[0].ok {
        assert_eq!(
            r[0].content, UNWRITABLE,
            "a refused /play is answered with the one-line storage refusal"
        );
        return Played::Refused;
    }
    assert!(r.iter().all(|r| r.ok), "/play refused otherwise: {r:#?}");
    Played::Stored(r.iter().filter_map(|r| r.outbox).collect())
}

/// How many log entries each game has, as stored.
fn logs(dir: &Path, games: &[u64]) -> BTreeMap<u64, usize> {
    let store = tokar_bot::storage::Store::open_existing(dir, &Default::default()).unwrap();
    games
        .iter()
        .map(|&g| (g, store.log(g).unwrap().len()))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_disk_that_fills_up_mid_play_loses_nothing_announced_and_announces_nothing_lost() {
    let fs = Tmpfs::mount("full-disk", "64m");
    let dir = fs.0.join("data");
    std::fs::create_dir_all(&dir).unwrap();
    let env = open(&dir, Some(7)).await;
    let games = [
        env.start("alice", "bob").await,
        env.start("alice", "bob").await,
    ];
    // What starting the games said is delivered before the disk fills.
    let due = env.table.outbox_due(usize::MAX).await;
    let ids = due.iter().map(|e| e.id).collect();
    env.table.outbox_delivered_all(ids).await.unwrap();
    drop(env);
    let before = logs(&dir, &games);

    let env = open(&dir, Some(7)).await;
    let delivered: Deliveries = Default::default();
    let stop = Arc::new(AtomicBool::new(false));
    let worker = deliver(&env, delivered.clone(), stop.clone());
    // A little room: a few actions fit, then the disk is full.
    fill(&fs.0, 384 * 1024);

    let mut stored: Vec<(u64, Vec<u64>)> = Vec::new();
    // Refused /plays, and turns where the store could not even be read.
    let (mut refused, mut unread) = (0, 0);
    let mut attempts = 0;
    while refused + unread < 6 {
        attempts += 1;
        assert!(
            attempts < 400,
            "the disk never filled up: {} actions stored",
            stored.len()
        );
        let game = games[attempts % games.len()];
        match play(&env, game).await {
            Played::Stored(ids) => stored.push((game, ids)),
            Played::Refused => refused += 1,
            // The store tries to open itself again once a second.
            Played::Unread => {
                unread += 1;
                tokio::time::sleep(std::time::Duration::from_millis(300)).await;
            }
        }
    }
    assert!(
        !stored.is_empty(),
        "no action was stored before the disk filled up"
    );

    // Space comes back: the same process stores actions again (the store
    // opens itself again from disk), and they are delivered.
    fs.resize("256m");
    std::fs::remove_file(fs.0.join("filler")).unwrap();
    let mut again = 0;
    for attempt in 0..40 {
        let game = games[attempt % games.len()];
        if let Played::Stored(ids) = play(&env, game).await {
            stored.push((game, ids));
            again += 1;
            if again == 3 {
                break;
            }
        } else {
            tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        }
    }
    assert_eq!(again, 3, "the store took no writes once space came back");
    // Everything stored is delivered before the restart.
    let mut settled = false;
    for _ in 0..200 {
        let d = delivered.lock().unwrap().clone();
        if stored
            .iter()
            .flat_map(|(_, ids)| ids)
            .all(|id| d.contains_key(id))
        {
            settled = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    stop.store(true, Ordering::SeqCst);
    worker.await.unwrap();
    drop(env);
    assert!(settled, "stored announcements were not delivered");

    let d = delivered.lock().unwrap().clone();
    let twice: Vec<_> = d.iter().filter(|(_, n)| **n > 1).collect();
    assert!(twice.is_empty(), "delivered more than once: {twice:?}");
    let announced: BTreeSet<u64> = stored.iter().flat_map(|(_, ids)| ids.clone()).collect();
    let strays: Vec<_> = d.keys().filter(|id| !announced.contains(id)).collect();
    assert!(
        strays.is_empty(),
        "entries delivered that no stored action made (a refused action announced): {strays:?}"
    );

    // A restart: every stored (and so announced) action is there, and no other.
    let after = logs(&dir, &games);
    for g in games {
        let plays = stored.iter().filter(|(game, _)| *game == g).count();
        assert_eq!(
            after[&g],
            before[&g] + plays,
            "game #{g}: {plays} action(s) stored and announced, the log after a restart says otherwise"
        );
    }
    let env = open(&dir, Some(7)).await;
    let left: Vec<u64> = env
        .table
        .outbox_due(usize::MAX)
        .await
        .iter()
        .map(|e| e.id)
        .filter(|id| !d.contains_key(id))
        .collect();
    assert!(left.is_empty(), "entries never delivered: {left:?}");
    drop(env);
}
