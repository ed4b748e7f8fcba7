//! Opening the store: the table's open (which creates a store in a new
//! folder and refuses a database that is not the folder's store, see
//! `marker_check.rs`), the read-only open of the operator's tools, and a
//! store on any database.

use super::kv::{transaction, Kv, SledKv, MAIN, MARKED};
use super::marker_check::{self, Found, Kind};
use super::marker_keeper::Keeper;
use super::{next_game, postgres, Store, StoreError, StoreSettings, IDENTITY};
use std::path::Path;
use std::sync::Arc;
use tracing::{info, warn};

/// How long opening waits for a folder whose lock is held. sled lets go of
/// its lock a moment after its last handle closes (its background threads
/// finish first), so a store reopened in the same process, or an operator
/// command run just as the bot stops, would otherwise be told the folder is in
/// use by a process that is already leaving.
const LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// The sled database in `db_dir`, opened with the settings' cache size.
fn open_db_at(db_dir: &Path, settings: &StoreSettings) -> Result<sled::Db, StoreError> {
    let started = std::time::Instant::now();
    loop {
        let opened = sled::Config::new()
            .path(db_dir)
            .cache_capacity(settings.cache_mb.saturating_mul(1024 * 1024))
            .open();
        match opened {
            Ok(db) => return Ok(db),
            Err(sled::Error::Io(io)) if io.to_string().contains("could not acquire lock") => {
                if started.elapsed() >= LOCK_WAIT {
                    let folder = db_dir.parent().unwrap_or(db_dir);
                    return Err(StoreError::InUse(folder.to_path_buf()));
                }
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
            Err(e) => return Err(e.into()),
        }
    }
}

/// The sled database of a data folder, as the store's [`Kv`].
/// After a failed write it is opened again from disk (see `storage/sled_kv.rs`).
fn sled_kv(dir: &Path, settings: &StoreSettings) -> Result<SledKv, StoreError> {
    let (again, settings_again) = (dir.join("db"), settings.clone());
    SledKv::reopening(
        open_db_at(&dir.join("db"), settings)?,
        dir.display().to_string(),
        Box::new(move || open_db_at(&again, &settings_again)),
    )
}

/// The folder's marker, or why it cannot be read (a refusal, unless
/// `fresh`: then it is written anew).
fn read_marker(dir: &Path, fresh: bool) -> Result<Option<crate::marker::Marker>, StoreError> {
    match crate::marker::read(dir) {
        Ok(m) => Ok(m),
        Err(e) if fresh => {
            warn!(error = %e, "store marker unreadable; TOKAR_FRESH_STORE writes it anew");
            Ok(None)
        }
        Err(e) => Err(StoreError::NotTheStore(format!(
            "{e}\n  If the database is the right one, start once with TOKAR_FRESH_STORE=1 to write the marker anew."
        ))),
    }
}

impl Store {
    /// Opens (or creates) the store of a data folder with the default settings.
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        Store::open_with(dir, &StoreSettings::default())
    }

    /// Opens the store of a data folder for the table (in the folder, or in
    /// PostgreSQL with `settings.database`): creates it when the folder is
    /// new, and refuses ([`StoreError::NotTheStore`]) when the folder's
    /// marker, or what the folder holds, shows a store that the database is
    /// not (see `marker_check.rs`), unless `settings.fresh`. Then keeps the
    /// folder's marker up to date while the store is open.
    pub fn open_with(dir: &Path, settings: &StoreSettings) -> Result<Store, StoreError> {
        let marker = read_marker(dir, settings.fresh)?;
        let existed = dir.join("db").exists();
        let (kv, kind): (Arc<dyn Kv>, Kind) = match &settings.database {
            Some(url) => (Arc::new(postgres::PgKv::connect(url)?), Kind::Postgres),
            None => {
                if !settings.fresh {
                    marker_check::before_sled(dir, marker.as_ref())?;
                }
                (Arc::new(sled_kv(dir, settings)?), Kind::Sled)
            }
        };
        if settings.fresh {
            warn!(data = %dir.display(), "TOKAR_FRESH_STORE: the database as found becomes this folder's store");
        } else {
            let found = Found::of(&*kv, dir, kind)?;
            marker_check::judge(dir, marker.as_ref(), &found, kind)?;
        }
        let store = Store::create_identity(kv)?;
        if kind == Kind::Sled {
            store.mark()?;
        }
        let keeper = Keeper::start(dir, store.marker_fields()?).map_err(StoreError::NotTheStore)?;
        // The data folder is the bot's alone (see `storage/private.rs`).
        let (changed, failed) = super::private::tighten(dir);
        if let Some(e) = failed {
            warn!(data = %dir.display(), error = %e, "cannot make the data folder private");
        }
        if changed > 0 && existed {
            info!(data = %dir.display(), entries = changed, "the data folder was readable by others: made private (folders 0700, files 0600)");
        }
        Ok(Store {
            marker: Some(Arc::new(keeper)),
            ..store
        })
    }

    /// Opens the existing store of a data folder (or of
    /// `settings.database`) to read it: no identity is drawn, no marker
    /// written, and a folder without a database (or a database without a
    /// store) is an error rather than a new store. (sled may still tidy its
    /// own files on open.)
    pub fn open_existing(dir: &Path, settings: &StoreSettings) -> Result<Store, StoreError> {
        if let Some(url) = &settings.database {
            let kv = postgres::PgKv::connect(url)?;
            if kv.get(MAIN, IDENTITY)?.is_none() {
                return Err(StoreError::Database(format!(
                    "{} holds no Tokar store",
                    kv.describe()
                )));
            }
            return Ok(Store::unmarked(Arc::new(kv)));
        }
        if !dir.join("db").exists() {
            return Err(StoreError::NoStore(dir.to_path_buf()));
        }
        Ok(Store::unmarked(Arc::new(sled_kv(dir, settings)?)))
    }

    /// The sled database in the folder `db_dir` as it is (made there when
    /// absent), with the default settings: no identity drawn, no marker kept,
    /// given up for good if a write fails. For a restore, which builds a
    /// store in a folder of its own and looks at the one it replaces;
    /// `describe` is what the operator is told it is.
    pub fn database_at(db_dir: &Path, describe: String) -> Result<Store, StoreError> {
        let db = open_db_at(db_dir, &StoreSettings::default())?;
        Ok(Store::unmarked(Arc::new(SledKv::new(db, describe)?)))
    }

    /// A store on a database as it is: no identity drawn, no marker kept (a
    /// restore's new store, which brings its own identity).
    pub fn unmarked(kv: Arc<dyn Kv>) -> Store {
        Store {
            kv,
            marker: None,
            delivered: Default::default(),
        }
    }

    /// A store on any database, drawing its identity if it has none yet.
    pub fn on(kv: Arc<dyn Kv>) -> Result<Store, StoreError> {
        Store::create_identity(kv)
    }

    /// Draws the store's identity if it has none yet.
    fn create_identity(kv: Arc<dyn Kv>) -> Result<Store, StoreError> {
        if kv.get(MAIN, IDENTITY)?.is_none() {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or_default();
            let identity = tokar_model::entropy::fresh(&[nanos]);
            // Only the first writer's number counts.
            transaction(&*kv, |tx| {
                if tx.get(MAIN, IDENTITY)?.is_none() {
                    tx.insert(MAIN, IDENTITY, &identity.to_be_bytes())?;
                }
                Ok(())
            })?;
        }
        Ok(Store::unmarked(kv))
    }

    /// Records in the database that a marker names it (see
    /// `marker_check.rs`), durably, before the marker is written.
    pub fn mark(&self) -> Result<(), StoreError> {
        if self.kv.get(MAIN, MARKED)?.is_none() {
            let at = crate::marker::now_ms().to_be_bytes();
            transaction(&*self.kv, |tx| tx.insert(MAIN, MARKED, &at))?;
        }
        Ok(())
    }

    /// What the folder's marker records of this store, read from the database.
    pub fn marker_fields(&self) -> Result<crate::marker::Fields, StoreError> {
        Ok(crate::marker::Fields {
            identity: self.identity()?,
            games: next_game(&*self.kv)? - 1,
            generation: self.kv.generation()?,
            database: match self.kv.in_folder() {
                true => "sled".into(),
                false => self.kv.describe(),
            },
        })
    }

    /// Marks the store and writes the marker of `dir` for it now (after a
    /// restore). A sled store is marked in its database first.
    pub fn write_marker_in(&self, dir: &Path) -> Result<(), String> {
        if self.kv.in_folder() {
            self.mark().map_err(|e| e.to_string())?;
        }
        let fields = self.marker_fields().map_err(|e| e.to_string())?;
        crate::marker::write(dir, &fields)
    }

    /// Tells the marker's keeper (if the store has one) what was stored.
    pub fn noted(&self, games: Option<u64>, generation: Option<u64>) {
        if let Some(k) = &self.marker {
            k.note(games, generation);
        }
    }
}
