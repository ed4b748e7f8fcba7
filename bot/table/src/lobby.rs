//! Making a game: /new, /accept, /decline, /join, and the start once every
//! seat is taken.

use super::export;
use super::games::Games;
use super::text::{self, lobby_status, open_seats};
use super::{Change, Loaded, Reply, Request, Res, Table, UserRef};
use tokar_engine::catalog::{AnyGame, GameKind, Options};
use tokar_engine::spelling::did_you_mean;
use tokar_engine::{Seat, Viewer};
use tokar_model::command::{Args, NewGame};
use tokar_model::duration;
use tokar_model::quote::excerpt;
use tokar_model::record::{GameRecord, LogEntry, Member, Named, Phase, Reseed, TurnClock, FORMAT};

/// Setting games up: /new, /accept, /join, /decline, and the lobby's sweep.
#[derive(Clone, Copy)]
pub(crate) struct Lobby<'t> {
    pub(super) t: &'t Table,
}

/// Reads a game's options from a command. Per-seat options go to the user's
/// own list (applied to their seats at the start); the creator may also give
/// one for a given seat (`army.1:undead`).
fn read_options(kind: GameKind, args: &mut Args, creator: bool) -> Res<(Options, Options)> {
    let mut game = Options::new();
    let mut mine = Options::new();
    for spec in kind.options() {
        let check = |v: String| -> Res<String> {
            if spec.choices.is_empty() {
                kind.check_option(spec.name, &v).map_err(|e| {
                    format!("{e}{}", did_you_mean(&v, kind.named_values(spec.name)))
                })?;
                return Ok(v);
            }
            spec.choices
                .iter()
                .find(|c| c.eq_ignore_ascii_case(&v))
                .map(|c| c.to_string())
                .ok_or_else(|| {
                    format!(
                        "Option {} cannot be '{}':{} Choose {}.",
                        spec.name,
                        excerpt(&v),
                        did_you_mean(&v, spec.choices.iter().copied()),
                        spec.choices.join(", ")
                    )
                    .into()
                })
        };
        if let Some(v) = args.take(spec.name) {
            if spec.per_seat {
                mine.insert(spec.name.to_string(), check(v)?);
            } else if creator {
                game.insert(spec.name.to_string(), check(v)?);
            } else {
                return Err(format!(
                    "Option {} is chosen by the game's creator at /new.",
                    spec.name
                )
                .into());
            }
        }
        if spec.per_seat && creator {
            args.expect(&format!("{}.1", spec.name));
            let prefix = format!("{}.", spec.name);
            for (k, v) in args.take_where(|k| {
                k.strip_prefix(&prefix)
                    .is_some_and(|n| n.parse::<u8>().is_ok())
            }) {
                game.insert(k, check(v)?);
            }
        }
    }
    Ok((game, mine))
}

/// What a game created from a record tells its players: where it starts, and
/// that chance after the record's actions is new (T13). Empty otherwise.
fn from_record_note(actions: u64, reseeds: &[Reseed]) -> String {
    match reseeds.last() {
        Some(r) if r.after == actions => format!(
            " It starts from a record, after its {actions} action{}; dice and cards after them are drawn afresh.",
            if actions == 1 { "" } else { "s" }
        ),
        _ => String::new(),
    }
}

/// The options an invitee may give, as an invitation lists them. A free-text option with
/// named values (Arcana's army: presets and unit picks) points to its rules page rather
/// than quoting its whole help, which is a paragraph (ruling T59).
fn options_help(kind: GameKind, per_seat_only: bool) -> String {
    let list: Vec<String> = kind
        .options()
        .iter()
        .filter(|o| o.per_seat || !per_seat_only)
        .map(|o| {
            if o.choices.is_empty() && !kind.named_values(o.name).is_empty() {
                format!("{}: see /rules {} {}", o.name, kind.slug(), o.name)
            } else if o.choices.is_empty() {
                format!("{}: {}", o.name, o.help)
            } else {
                format!("{}: {}", o.name, o.choices.join("|"))
            }
        })
        .collect();
    if list.is_empty() {
        String::new()
    } else {
        format!(" (options: {})", list.join(", "))
    }
}

impl Lobby<'_> {
    pub(super) async fn cmd_new(&self, req: &Request, asked: &NewGame) -> Res<Vec<Reply>> {
        let mut args = asked.options.clone();
        let from = match &asked.record {
            Some(r) => {
                let e = export::read(r)?;
                // The whole record is replayed now, off the executor: a long one takes a while.
                let checked = tokio::task::spawn_blocking(move || export::check(&e).map(|()| e))
                    .await
                    .map_err(|err| {
                        tracing::error!(error = %err, "record check failed");
                        "The record could not be checked; try again.".to_string()
                    })?;
                Some(checked?)
            }
            None => None,
        };
        let kind = match (&from, asked.game) {
            (Some(e), _) => e.kind,
            (None, Some(kind)) => kind,
            (None, None) => return Err(tokar_model::command::missing_game()),
        };
        if !kind.available() {
            return Err(format!("{} cannot be played yet.", kind.title()).into());
        }
        let players = asked.players;
        let mut opponents: Vec<u64> = Vec::new();
        // Seats the bot takes at once (opponent:@Tokar, possibly several times, and bots:N).
        let mut robots = 0usize;
        for o in &asked.opponents {
            if self.t.bot().names_robot(&o.typed) {
                robots += 1;
                continue;
            }
            let id = o.id()?;
            if id == req.user.id {
                return Err(
                    "You cannot invite yourself; to hold several seats, use players:1.".into(),
                );
            }
            if opponents.contains(&id) {
                return Err(format!("{} is invited twice.", excerpt(&o.typed)).into());
            }
            opponents.push(id);
        }
        let (mut options, mine) = read_options(kind, &mut args, true)?;
        let asked_play = super::robot::PlayAsked {
            level: asked.level,
            hints: asked.hints,
            vacation: asked.vacation,
            bots: asked.bots,
        };
        robots += asked_play.bots;
        let rates_bots = match (robots, req.channel.guild) {
            (1.., Some(g)) => {
                self.t
                    .records()
                    .blocking(move |s| s.server(g))
                    .await?
                    .rate_bot_games
            }
            _ => false,
        };
        let rated = read_rated(asked.rated, robots, rates_bots)?;
        let mut play = asked_play.for_game(rated)?;
        play.bound_to_record = from.is_some();
        // Its seats are rated as its level's player (T52).
        play.robot = (robots > 0).then(|| self.t.robot().id);
        // The move deadline of this game, else the creator's setting (T5, T25).
        let deadline = asked.deadline;
        let reminder = asked.reminder;
        args.finish("new")?;
        self.room_for_a_new_game(req.user.id).await?;
        // Unless the creator says, a game has the seats its rules are written for (Magic
        // Chess four, the others two), more when more people are invited.
        let players = players.unwrap_or_else(|| kind.players().max(1 + opponents.len() + robots));
        if players < 1 + opponents.len() + robots {
            return Err(format!(
                "players:{players} leaves no room for {} invited opponents.",
                opponents.len() + robots
            )
            .into());
        }
        kind.seating(players).map_err(|e| e.to_string())?;
        match &from {
            Some(e) => {
                record_keeps_options(&options, &e.options)?;
                bound_by_record(kind, players, &e.options, &mine, 0)?;
                options = e.options.clone()
            }
            // A record keeps the rules it was made with; a new game is marked with the
            // current ones (the edition of Arcana's rulings) and the defaults its number of
            // players asks for (two players of Magic Chess are partners, R15).
            None => kind.stamp(&mut options, players),
        }
        let me = self.t.records().user_record(&req.user).await?;
        let mut invited = Vec::new();
        for &o in &opponents {
            invited.push(self.t.records().name_of(o).await);
        }
        let id = self.t.records().blocking(|s| s.next_game_id()).await?;
        let now = self.t.records().now();
        // A record's seed serves only to replay its actions; from the first
        // action not in it, chance comes from a seed nobody has seen (T13).
        let (seed, reseeds, preset) = match from {
            Some(e) if !e.actions.is_empty() => {
                let mut reseeds: Vec<Reseed> = match e.seed {
                    Some(_) => e.reseeds,
                    None => Vec::new(),
                };
                reseeds.push(Reseed::redraw(
                    e.actions.len() as u64,
                    self.t.seeds().secret_seed(id)?,
                ));
                let seed = match e.seed {
                    Some(s) => s,
                    None => self.t.seeds().seed_for(id)?,
                };
                (seed, reseeds, e.actions)
            }
            _ => (self.t.seeds().seed_for(id)?, Vec::new(), Vec::new()),
        };
        let mut rec = GameRecord {
            format: FORMAT,
            id,
            version: 0,
            kind,
            channel: Named::from(&req.channel),
            created_at: now,
            creator: req.user.id,
            players,
            members: vec![Member {
                user: Named::from(&req.user),
                seat_options: mine,
                seats: Vec::new(),
            }],
            invited,
            options,
            seed,
            phase: Phase::Lobby,
            table_outcome: None,
            log_len: 0,
            snapshot: None,
            deadline: deadline.unwrap_or(me.deadline),
            // The lobby's clock: an unanswered invitation expires after the deadline (T27).
            turn: TurnClock {
                since: self.t.records().now(),
                ..TurnClock::default()
            },
            draw_offer: None,
            undo_offer: None,
            scheduled: None,
            last_marks: Vec::new(),
            preset,
            play,
            channel_lost: None,
            reseeds,
            guild: req.channel.guild,
            reminder,
            followers: Vec::new(),
            started_at: None,
            rated: Some(rated),
            thread: None,
        };
        for _ in 0..robots {
            rec.members.push(self.t.robot_moves().robot_member().await);
        }
        if rec.members.len() == rec.players {
            return self.start_and_save(rec, None, req, "").await;
        }
        let staged = self
            .t
            .games()
            .stage(
                Loaded { rec, game: None },
                None,
                Change {
                    append: vec![],
                    truncate_from: None,
                },
            )
            .await?;
        let saved = &staged.rec;
        let mut content = format!(
            "{} created game #{} ({}, {}).{}",
            req.user.name,
            saved.id,
            kind.title(),
            assistance_note(saved),
            from_record_note(saved.preset.len() as u64, &saved.reseeds)
        );
        content.push_str(&clock_note(saved));
        if !saved.invited.is_empty() {
            content.push_str(&format!(
                " {}: /accept game:{id}{} or /decline game:{id}.",
                saved
                    .invited
                    .iter()
                    .map(|u| u.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                options_help(kind, true)
            ));
        }
        let open = open_seats(saved);
        if open > 0 {
            content.push_str(&format!(
                " {open} open seat{}: /join game:{id}{}.",
                if open == 1 { "" } else { "s" },
                options_help(kind, true)
            ));
        }
        let mut reply = Reply::public(&req.channel, content);
        reply.mentions = saved.invited.iter().map(UserRef::from).collect();
        reply.buttons = super::answers::lobby_buttons(saved);
        self.t.games().store(Some(req), staged, vec![reply]).await
    }

    /// Invitations to the user (or the one named).
    async fn invitation(&self, req: &Request, given: Option<u64>) -> Res<Loaded> {
        let user = req.user.id;
        let recs = self.t.games().records_of_user(user).await?;
        let mine: Vec<&GameRecord> = recs
            .iter()
            .filter(|r| r.phase == Phase::Lobby && r.invited.iter().any(|i| i.id == user))
            .filter(|r| given.is_none_or(|g| r.id == g))
            .collect();
        match mine.as_slice() {
            [] => Err(match given {
                Some(g) => format!("You have no invitation to game #{g}.").into(),
                None => "You have no invitation to answer.".into(),
            }),
            [one] => self.t.records().load(one.id).await,
            many => Err(format!(
                "You are invited to several games ({}): add game:<number>.",
                many.iter()
                    .map(|r| format!("#{}", r.id))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
            .into()),
        }
    }

    pub(super) async fn cmd_accept(
        &self,
        req: &Request,
        given: Option<u64>,
        options: &Args,
    ) -> Res<Vec<Reply>> {
        let mut args = options.clone();
        let first = self.invitation(req, given).await?;
        let id = first.rec.id;
        let _guard = self.t.records().lock(id).await;
        let Loaded { mut rec, .. } = self.t.records().load(id).await?;
        if rec.phase != Phase::Lobby || !rec.invited.iter().any(|i| i.id == req.user.id) {
            return Err(format!("You have no invitation to game #{id}.").into());
        }
        Games::own_channel(&rec, req)?;
        let (_, mine) = read_options(rec.kind, &mut args, false)?;
        args.finish("accept")?;
        if rec.play.bound_to_record {
            bound_by_record(
                rec.kind,
                rec.players,
                &rec.options,
                &mine,
                rec.members.len(),
            )?;
        }
        let version = rec.version;
        rec.invited.retain(|i| i.id != req.user.id);
        rec.members.push(Member {
            user: Named::from(&req.user),
            seat_options: mine,
            seats: Vec::new(),
        });
        self.joined(rec, version, req, "accepted").await
    }

    pub(super) async fn cmd_join(
        &self,
        req: &Request,
        given: Option<u64>,
        options: &Args,
    ) -> Res<Vec<Reply>> {
        let mut args = options.clone();
        let id = match given {
            Some(g) => g,
            None => {
                let ids = self
                    .t
                    .records()
                    .blocking({
                        let c = req.channel.id;
                        move |s| s.games_in_channel(c)
                    })
                    .await?;
                let mut open = Vec::new();
                for r in self.t.games().records_by_id(ids).await? {
                    if r.phase == Phase::Lobby
                        && open_seats(&r) > 0
                        && !text::is_member(&r, req.user.id)
                    {
                        open.push(r.id);
                    }
                }
                match open.as_slice() {
                    [] => {
                        return Err(
                            "No game in this channel has an open seat. Start one with /new.".into(),
                        )
                    }
                    [one] => *one,
                    many => {
                        return Err(format!(
                            "Several games here have open seats ({}): add game:<number>.",
                            many.iter()
                                .map(|i| format!("#{i}"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        )
                        .into())
                    }
                }
            }
        };
        let _guard = self.t.records().lock(id).await;
        let Loaded { mut rec, .. } = self.t.records().load(id).await?;
        if rec.phase != Phase::Lobby {
            return Err(
                format!("Game #{id} has already started; there is no seat to join.").into(),
            );
        }
        Games::own_channel(&rec, req)?;
        if text::is_member(&rec, req.user.id) {
            return Err(format!("You are already in game #{id}.").into());
        }
        if rec.invited.iter().any(|i| i.id == req.user.id) {
            return Err(format!("You are invited to game #{id}: /accept game:{id}.").into());
        }
        if open_seats(&rec) == 0 {
            return Err(format!(
                "Game #{id} has no open seat; its seats are kept for invited players."
            )
            .into());
        }
        let (_, mine) = read_options(rec.kind, &mut args, false)?;
        args.finish("join")?;
        if rec.play.bound_to_record {
            bound_by_record(
                rec.kind,
                rec.players,
                &rec.options,
                &mine,
                rec.members.len(),
            )?;
        }
        let version = rec.version;
        rec.members.push(Member {
            user: Named::from(&req.user),
            seat_options: mine,
            seats: Vec::new(),
        });
        self.joined(rec, version, req, "joined").await
    }

    async fn joined(
        &self,
        rec: GameRecord,
        version: u64,
        req: &Request,
        verb: &str,
    ) -> Res<Vec<Reply>> {
        if rec.members.len() == rec.players {
            return self.start_and_save(rec, Some(version), req, verb).await;
        }
        let staged = self
            .t
            .games()
            .stage(
                Loaded { rec, game: None },
                Some(version),
                Change {
                    append: vec![],
                    truncate_from: None,
                },
            )
            .await?;
        let mut reply = Reply::public(
            &req.channel,
            format!(
                "{} {verb} game #{}. {}",
                req.user.name,
                staged.rec.id,
                lobby_status(&staged.rec)
            ),
        );
        reply.buttons = super::answers::lobby_buttons(&staged.rec);
        self.t.games().store(Some(req), staged, vec![reply]).await
    }

    pub(super) async fn cmd_decline(&self, req: &Request, given: Option<u64>) -> Res<Vec<Reply>> {
        let first = self.invitation(req, given).await?;
        let id = first.rec.id;
        let _guard = self.t.records().lock(id).await;
        let Loaded { mut rec, .. } = self.t.records().load(id).await?;
        if rec.phase != Phase::Lobby || !rec.invited.iter().any(|i| i.id == req.user.id) {
            return Err(format!("You have no invitation to game #{id}.").into());
        }
        Games::own_channel(&rec, req)?;
        let version = rec.version;
        rec.invited.retain(|i| i.id != req.user.id);
        rec.phase = Phase::Cancelled;
        let staged = self
            .t
            .games()
            .stage(
                Loaded { rec, game: None },
                Some(version),
                Change {
                    append: vec![],
                    truncate_from: None,
                },
            )
            .await?;
        let saved = &staged.rec;
        let mut reply = Reply::public(
            &req.channel,
            format!(
                "{} declined game #{}; it is cancelled.",
                req.user.name, saved.id
            ),
        );
        reply.mentions = saved
            .members
            .iter()
            .map(|m| UserRef::from(&m.user))
            .collect();
        self.t.games().store(Some(req), staged, vec![reply]).await
    }

    /// Seats everyone, sets the game up, replays a record's actions, saves,
    /// and announces the first turn. A setup the game refuses (two players
    /// picked the same army) refuses the last join and stores nothing.
    pub(super) async fn start_and_save(
        &self,
        mut rec: GameRecord,
        version: Option<u64>,
        req: &Request,
        verb: &str,
    ) -> Res<Vec<Reply>> {
        let seating = rec.kind.seating(rec.players).map_err(|e| e.to_string())?;
        if seating.len() != rec.members.len() {
            return Err(format!(
                "{} seats {} people, but {} joined.",
                rec.kind.title(),
                seating.len(),
                rec.members.len()
            )
            .into());
        }
        for (m, seats) in rec.members.iter_mut().zip(&seating) {
            m.seats = seats.iter().map(|s| s.0).collect();
            for (k, v) in &m.seat_options {
                for s in seats {
                    rec.options
                        .entry(format!("{k}.{}", s.0))
                        .or_insert_with(|| v.clone());
                }
            }
        }
        let mut game = AnyGame::setup(rec.kind, &rec.options, rec.seed)
            .map_err(|e| format!("Game #{} cannot start: {e}", rec.id))?;
        let now = self.t.records().now();
        let mut append = Vec::new();
        for (i, (seat, action)) in std::mem::take(&mut rec.preset).into_iter().enumerate() {
            super::reseed_at(&rec, &mut game, i as u64);
            let user = text::holder(&rec, Seat(seat)).map_or(0, |u| u.id);
            let mut entry = LogEntry {
                format: FORMAT,
                seq: i as u64,
                seat,
                user,
                action,
                at: now,
                chance: false,
                text: Vec::new(),
            };
            let events = super::apply_entry(&mut game, &entry).map_err(|e| {
                format!(
                    "Game #{} cannot start: recorded action {} does not apply ({e}).",
                    rec.id,
                    i + 1
                )
            })?;
            entry.chance = events.iter().any(|e| e.chance);
            entry.text = events.iter().map(|e| e.text.clone()).collect();
            append.push(entry);
        }
        rec.log_len = append.len() as u64;
        rec.started_at = Some(now);
        super::reseed_at(&rec, &mut game, rec.log_len);
        rec.phase = if super::outcome(&rec, &game).is_over() {
            Phase::Finished
        } else {
            Phase::Playing
        };
        let before = Vec::new();
        super::games::retime(&mut rec, &game, now);
        let id = rec.id;
        let staged = self
            .t
            .games()
            .stage(
                Loaded {
                    rec,
                    game: Some(game.clone()),
                },
                version,
                Change {
                    append,
                    truncate_from: None,
                },
            )
            .await?;
        let saved = &staged.rec;
        let lead = if verb.is_empty() {
            String::new()
        } else {
            format!("{} {verb}. ", req.user.name)
        };
        // Dice thrown by the setup itself (Arachne rolls the first turn's
        // before anyone acts): later turns' dice are in the events of the
        // action before them, but the first has no action before it.
        // A game from a record threw its dice afresh after the record's
        // actions (T13): those are the first the players see.
        let fresh = saved.log_len == 0
            || saved
                .reseeds
                .last()
                .is_some_and(|r| r.after == saved.log_len);
        let first_roll = match game.view(Viewer::Spectator).dice {
            Some((seat, dice)) if fresh => format!(
                "· {} rolls {}.\n",
                game.seat_name(seat),
                dice.iter().map(u8::to_string).collect::<Vec<_>>().join("+")
            ),
            _ => String::new(),
        };
        let content = format!(
            "{lead}Game #{id} ({}) begins: {}.{}\n{first_roll}{}",
            saved.kind.title(),
            text::lineup(saved, &game),
            from_record_note(saved.log_len, &saved.reseeds),
            text::status(saved, &game)
        );
        let reply = self
            .t
            .games()
            .turn_message(&req.channel, saved, &game, content, &before)
            .await;
        let mut staged = staged;
        staged.open_thread = self.t.channels().thread_request(req, &staged.rec).await?;
        self.t.games().store(Some(req), staged, vec![reply]).await
    }
}

/// Ruling T51: the options the creator gives with `/new record:` must be the record's (a
/// record's game is replayed with them, so another value would replay its actions as
/// another game's).
fn record_keeps_options(given: &Options, record: &Options) -> Res<()> {
    for (k, v) in given {
        match record.get(k) {
            Some(r) if r.eq_ignore_ascii_case(v) => {}
            Some(r) => {
                return Err(format!(
                    "The record sets {k}:{r}; a game from it keeps the record's options: leave out {k}:."
                ).into())
            }
            None => {
                return Err(format!(
                    "The record has no {k}: option (its game had the default); a game from it keeps the record's options: leave out {k}:."
                ).into())
            }
        }
    }
    Ok(())
}

/// Ruling T51: in a game from a record (of `kind` for `players`, with the record's
/// `options`), a per-seat option given by the person who takes the `member`-th place
/// (joining order) must be the record's value for each of their seats; where the record
/// has none (the game's default applied), none may be given.
fn bound_by_record(
    kind: GameKind,
    players: usize,
    options: &Options,
    given: &Options,
    member: usize,
) -> Res<()> {
    if given.is_empty() {
        return Ok(());
    }
    let seating = kind.seating(players).map_err(|e| e.to_string())?;
    let Some(seats) = seating.get(member) else {
        return Ok(());
    };
    for (k, v) in given {
        for s in seats {
            match tokar_engine::catalog::seat_option(options, k, *s) {
                Some(r) if r.eq_ignore_ascii_case(v) => {}
                Some(r) => {
                    return Err(format!(
                        "The record sets {k}:{r} for your seat ({}); a game from it keeps the record's options: leave out {k}:.",
                        s.0
                    ).into())
                }
                None => {
                    return Err(format!(
                        "The record has no {k}: for your seat ({}) (its game had the default); a game from it keeps the record's options: leave out {k}:.",
                        s.0
                    ).into())
                }
            }
        }
    }
    Ok(())
}

/// What an invitation says about ratings and help (ruling T49): "rated, no hints",
/// "unrated, hints on" or "unrated, hints off"; and ", no vacation" in a game created with
/// `vacation:off` (T50).
fn assistance_note(rec: &GameRecord) -> String {
    let help = match (rec.rated == Some(true), rec.play.hints) {
        (true, _) => "rated, no hints",
        (false, true) => "unrated, hints on",
        (false, false) => "unrated, hints off",
    };
    if rec.play.vacation {
        help.to_string()
    } else {
        format!("{help}, no vacation")
    }
}

/// What an invitation says about the game's clock (ruling T59): its move deadline, and its
/// reminder interval, or that each waiting player's own setting decides it (T2, T25).
fn clock_note(rec: &GameRecord) -> String {
    let reminders = match rec.reminder {
        Some(every) => format!("every {}", duration::format(every)),
        None => "as each player's /settings say".to_string(),
    };
    format!(
        " Move deadline: {}; reminders: {reminders}.",
        duration::format(rec.deadline)
    )
}

/// `rated:yes|no` of /new: rated by default between people; a game with
/// Tokar's seats is not rated, and asking for it is refused, unless the server
/// rates them (`/server rated-bots:on`), when it is rated by default (T28).
fn read_rated(asked: Option<bool>, robots: usize, rates_bots: bool) -> Res<bool> {
    match (asked, robots) {
        (Some(true), 1..) if !rates_bots => Err(
            "Games with Tokar's seats are not rated on this server; leave out rated:yes, or invite people instead."
                .into(),
        ),
        (Some(r), _) => Ok(r),
        (None, n) => Ok(n == 0 || rates_bots),
    }
}
