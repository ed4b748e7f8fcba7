//! What the Discord client does for a user: builds slash commands from the registered
//! definitions (refusing what the client would not let a user type), types into autocomplete,
//! clicks buttons, and sends the interactions to the bot.

use serde_json::{json, Value};

use super::payloads::{self, Resolved, Source};
use super::rest;
use super::state::{
    ChannelKind, FakeChannel, FakeFile, FakeInteraction, FakeUser, Kind, Upload, GUILD_ID,
};
use super::world::archive_due;
use super::{gateway, FakeDiscord, WAIT};

/// The longest string option value a user can enter: an option's `max_length` is at most
/// 6000 ("The maximum allowed length (minimum of `1`, maximum of `6000`)", Interactions >
/// Application Commands > Application Command Option Structure).
pub const MAX_STRING_OPTION: usize = 6000;

/// Options as typed: plain values by option name, files for attachment options.
struct Typed {
    options: Vec<Value>,
    users: Vec<FakeUser>,
    uploads: Vec<Upload>,
}

impl FakeDiscord {
    /// The registered command `name` as the client would offer it in `channel`: guild
    /// commands in their guild's channels only ("Guild commands are specific to the guild you
    /// specify when making them", Interactions > Application Commands > Registering a Command;
    /// "Guild commands don't support the `BOT_DM` interaction context"); a global command in the DM with the bot only if its `contexts`
    /// include 1 (BOT_DM). A missing `contexts` means every context ("defaults to all
    /// contexts `[0,1,2]`"), and the deprecated `dm_permission: false` hides it from DMs
    /// (Interactions > Application Commands > Contexts; Application Command Structure).
    fn offered(&self, name: &str, channel: &FakeChannel) -> Result<Value, String> {
        let st = self.shared.lock();
        let mut found = false;
        for (guild, c) in st.commands.iter().filter(|(_, c)| c["name"] == name) {
            found = true;
            if channel.in_guild() {
                if guild.is_some() && *guild != channel.guild_id {
                    continue;
                }
                return Ok(c.clone());
            }
            if guild.is_some() || c["dm_permission"] == json!(false) {
                continue;
            }
            match c["contexts"].as_array() {
                Some(contexts) if !contexts.iter().any(|x| x == 1) => continue,
                _ => return Ok(c.clone()),
            }
        }
        if found && channel.in_guild() {
            Err(format!("/{name} is registered in another guild only"))
        } else if found {
            Err(format!("/{name} is not offered in DMs with the bot"))
        } else {
            Err(format!("/{name} is not registered"))
        }
    }

    /// The channel a user acts in, if the client lets them: it exists, the bot is still in
    /// the guild, and it is not an archived thread ("Users cannot edit messages, add
    /// reactions, use application commands, or join archived threads", Topics > Threads).
    ///
    /// Threads inactive past their `auto_archive_duration` on the fake clock are archived
    /// first, so a command in one fails here and is never dispatched. A category or a forum
    /// has no message box to type a command in.
    fn usable_channel(&self, channel: u64) -> Result<FakeChannel, String> {
        archive_due(&self.shared);
        let st = self.shared.lock();
        let c = st
            .channels
            .get(&channel)
            .filter(|c| !c.deleted)
            .cloned()
            .ok_or_else(|| format!("no channel {channel}"))?;
        if c.guild_id == Some(GUILD_ID) && !st.bot_in_guild {
            return Err("the bot is no longer in the guild".into());
        }
        if c.archived {
            return Err(format!(
                "thread {channel} is archived: the Discord client offers no application commands there"
            ));
        }
        if matches!(c.kind, ChannelKind::Category | ChannelKind::Forum) {
            return Err(format!(
                "channel {channel} is a {:?}: the Discord client has no message box there",
                c.kind
            ));
        }
        Ok(c)
    }

    /// Builds option objects the way the Discord client does from a registered command.
    fn typed_options(
        &self,
        def: &Value,
        given: &[(&str, &str)],
        files: &[(&str, FakeFile)],
        focused: Option<(&str, &str)>,
    ) -> Result<Typed, String> {
        let cmd = def["name"].as_str().unwrap_or("?");
        let defs = def["options"].as_array().cloned().unwrap_or_default();
        let find = |name: &str| {
            defs.iter()
                .find(|d| d["name"] == name)
                .ok_or_else(|| format!("/{cmd} has no option `{name}`"))
        };
        let mut out = Typed {
            options: Vec::new(),
            users: Vec::new(),
            uploads: Vec::new(),
        };
        for (name, raw) in given {
            let d = find(name)?;
            let kind = d["type"].as_u64().unwrap_or(0);
            let value = if let Some(choices) = d["choices"].as_array().filter(|c| !c.is_empty()) {
                // The player picks a choice by its shown name.
                choices
                    .iter()
                    .find(|c| c["name"] == *raw || c["value"].to_string().trim_matches('"') == *raw)
                    .map(|c| c["value"].clone())
                    .ok_or_else(|| format!("/{cmd} {name}: `{raw}` is not one of the choices"))?
            } else {
                self.typed_value(cmd, name, d, kind, raw, &mut out.users)?
            };
            out.options
                .push(json!({"name": name, "type": kind, "value": value}));
        }
        for (name, file) in files {
            let d = find(name)?;
            if d["type"].as_u64() != Some(11) {
                return Err(format!("/{cmd} {name} is not an attachment option"));
            }
            let id = self.shared.lock().fresh_id();
            out.options
                .push(json!({"name": name, "type": 11, "value": id.to_string()}));
            out.uploads.push(Upload {
                id,
                file: file.clone(),
            });
        }
        if let Some((name, typed)) = focused {
            let d = find(name)?;
            if d["autocomplete"].as_bool() != Some(true) {
                return Err(format!("/{cmd} {name} has no autocomplete"));
            }
            out.options
                .push(json!({"name": name, "type": d["type"], "value": typed, "focused": true}));
        } else {
            for d in &defs {
                let named = |n: &str| d["name"] == n;
                if d["required"].as_bool() == Some(true)
                    && !given.iter().any(|(n, _)| named(n))
                    && !files.iter().any(|(n, _)| named(n))
                {
                    return Err(format!(
                        "/{cmd}: the required option `{}` is missing",
                        d["name"]
                    ));
                }
            }
        }
        Ok(out)
    }

    /// One typed value, refused where the client refuses it.
    fn typed_value(
        &self,
        cmd: &str,
        name: &str,
        d: &Value,
        kind: u64,
        raw: &str,
        users: &mut Vec<FakeUser>,
    ) -> Result<Value, String> {
        Ok(match kind {
            3 => {
                let n = raw.chars().count();
                let max = d["max_length"]
                    .as_u64()
                    .map_or(MAX_STRING_OPTION, |m| m as usize);
                let min = d["min_length"].as_u64().unwrap_or(0) as usize;
                if n > max.min(MAX_STRING_OPTION) || n < min {
                    return Err(format!(
                        "/{cmd} {name}: {n} characters cannot be typed (allowed {min} to {})",
                        max.min(MAX_STRING_OPTION)
                    ));
                }
                json!(raw)
            }
            4 | 10 => {
                let v: f64 = raw
                    .parse()
                    .map_err(|_| format!("/{cmd} {name}: `{raw}` is not a number"))?;
                if kind == 4 && v.fract() != 0.0 {
                    return Err(format!("/{cmd} {name}: `{raw}` is not an integer"));
                }
                let below = d["min_value"].as_f64().is_some_and(|m| v < m);
                let above = d["max_value"].as_f64().is_some_and(|m| v > m);
                if below || above {
                    return Err(format!("/{cmd} {name}: {raw} is out of range"));
                }
                if kind == 4 {
                    json!(v as i64)
                } else {
                    json!(v)
                }
            }
            5 => json!(raw
                .parse::<bool>()
                .map_err(|_| format!("/{cmd} {name}: `{raw}` is not true/false"))?),
            6 => {
                let id: u64 = raw
                    .trim_start_matches("<@")
                    .trim_end_matches('>')
                    .parse()
                    .map_err(|_| format!("/{cmd} {name}: `{raw}` is not a user"))?;
                let u = self
                    .shared
                    .lock()
                    .users
                    .get(&id)
                    .cloned()
                    .ok_or_else(|| format!("no user {id}"))?;
                users.push(u);
                json!(id.to_string())
            }
            11 => return Err(format!("/{cmd} {name}: pass a file, not text")),
            other => {
                return Err(format!(
                    "/{cmd} {name}: option type {other} not supported by the fake"
                ))
            }
        })
    }

    fn register_interaction(
        &self,
        kind: Kind,
        user: &FakeUser,
        channel: &FakeChannel,
    ) -> (u64, String) {
        let mut st = self.shared.lock();
        let id = st.fresh_id();
        let token = format!("token-{id}");
        let now = st.now();
        st.interactions.insert(
            id,
            FakeInteraction {
                id,
                token: token.clone(),
                kind,
                user: user.clone(),
                channel_id: channel.id,
                dispatched: now,
                first_response: None,
                deferred: false,
                original: None,
                choices: None,
                ephemeral: false,
                context: if channel.in_guild() { 0 } else { 1 },
                delivered_to: 0,
                ack_lost: false,
                callback_refused: false,
            },
        );
        (id, token)
    }

    fn send(&self, id: u64, payload: Value) -> Result<(), String> {
        payloads::check_interaction(&payload)?;
        // The 3 s clock starts when the event leaves for the bot.
        {
            let mut st = self.shared.lock();
            let now = st.now();
            if let Some(i) = st.interactions.get_mut(&id) {
                i.dispatched = now;
            }
        }
        let guild = payload["guild_id"].as_str().and_then(|g| g.parse().ok());
        let (sessions, attached) =
            gateway::dispatch_counted(&self.shared, guild, "INTERACTION_CREATE", payload);
        if let Some(i) = self.shared.lock().interactions.get_mut(&id) {
            i.delivered_to = attached;
        }
        if sessions > 0 {
            Ok(())
        } else {
            Err("no bot is connected to the gateway on the shard of this guild".into())
        }
    }

    /// Builds and sends a command (or autocomplete) interaction in `channel`.
    #[allow(clippy::too_many_arguments)]
    fn command(
        &self,
        kind: Kind,
        user: &FakeUser,
        channel: &FakeChannel,
        command: &str,
        options: &[(&str, &str)],
        files: &[(&str, FakeFile)],
        focused: Option<(&str, &str)>,
    ) -> Result<u64, String> {
        let def = self.offered(command, channel)?;
        let typed = self.typed_options(&def, options, files, focused)?;
        let (id, token) = self.register_interaction(kind, user, channel);
        let (app_permissions, base_url, clock) = {
            let mut st = self.shared.lock();
            for u in &typed.uploads {
                st.uploads.insert(u.id, u.clone());
            }
            (
                st.bot_permissions(channel.id),
                st.base_url.clone(),
                st.clock.clone(),
            )
        };
        let src = Source {
            channel,
            app_permissions,
            clock,
        };
        let resolved = Resolved {
            users: typed.users,
            attachments: typed.uploads.iter().collect(),
        };
        let payload = payloads::command_interaction(
            id,
            &token,
            kind == Kind::Autocomplete,
            user,
            &src,
            &def,
            typed.options,
            &resolved,
            &base_url,
        );
        self.send(id, payload)?;
        Ok(id)
    }

    /// A user runs a slash command in a guild channel or thread; returns the interaction id.
    pub async fn slash(
        &self,
        user: &FakeUser,
        channel: u64,
        command: &str,
        options: &[(&str, &str)],
    ) -> Result<u64, String> {
        self.slash_with_files(user, channel, command, options, &[])
            .await
    }

    /// Like [`FakeDiscord::slash`] in a thread: the interaction's channel has a `parent_id`.
    pub async fn slash_in(
        &self,
        user: &FakeUser,
        thread: u64,
        command: &str,
        options: &[(&str, &str)],
    ) -> Result<u64, String> {
        self.slash(user, thread, command, options).await
    }

    /// A user runs a slash command, attaching files to its attachment options (type 11): the
    /// interaction carries them in `resolved.attachments`, with URLs the fake serves.
    pub async fn slash_with_files(
        &self,
        user: &FakeUser,
        channel: u64,
        command: &str,
        options: &[(&str, &str)],
        files: &[(&str, FakeFile)],
    ) -> Result<u64, String> {
        let c = self.usable_channel(channel)?;
        if c.kind == ChannelKind::Dm {
            return Err("use slash_in_dm for the DM with the bot".into());
        }
        self.command(Kind::Command, user, &c, command, options, files, None)
    }

    /// A user runs a slash command in their DM with the bot, if the command is offered there.
    pub async fn slash_in_dm(
        &self,
        user: &FakeUser,
        command: &str,
        options: &[(&str, &str)],
    ) -> Result<u64, String> {
        let c = {
            let mut st = self.shared.lock();
            rest::open_dm(&mut st, user)
        };
        self.command(Kind::Command, user, &c, command, options, &[], None)
    }

    /// A user types `typed` into option `focused`; returns the choices as (name, value).
    pub async fn autocomplete(
        &self,
        user: &FakeUser,
        channel: u64,
        command: &str,
        options: &[(&str, &str)],
        focused: (&str, &str),
    ) -> Result<Vec<(String, Value)>, String> {
        let c = self.usable_channel(channel)?;
        let id = self.command(
            Kind::Autocomplete,
            user,
            &c,
            command,
            options,
            &[],
            Some(focused),
        )?;
        let choices = self
            .shared
            .wait_for(WAIT, "autocomplete choices", |st| {
                let i = st.interactions.get(&id)?;
                match (&i.choices, i.callback_refused) {
                    (Some(c), _) => Some(Ok(c.clone())),
                    (None, true) => Some(Err("the choices never arrived".to_owned())),
                    (None, false) => None,
                }
            })
            .await??;
        Ok(choices
            .into_iter()
            .map(|c| {
                (
                    c["name"].as_str().unwrap_or("").to_owned(),
                    c["value"].clone(),
                )
            })
            .collect())
    }

    /// A user clicks a button of a message they can see; returns the interaction id.
    pub async fn click(
        &self,
        user: &FakeUser,
        message_id: u64,
        custom_id: &str,
    ) -> Result<u64, String> {
        let message = {
            let st = self.shared.lock();
            st.message(message_id)
                .cloned()
                .ok_or_else(|| format!("no message {message_id}"))?
        };
        if message.deleted || message.ephemeral_to.is_some_and(|u| u != user.id) {
            return Err(format!("{} cannot see message {message_id}", user.name));
        }
        if !message.buttons.iter().any(|b| b.custom_id == custom_id) {
            return Err(format!("message {message_id} has no button `{custom_id}`"));
        }
        let c = self.usable_channel(message.channel_id)?;
        let (id, token) = self.register_interaction(Kind::Component, user, &c);
        let (app_permissions, clock) = {
            let st = self.shared.lock();
            (st.bot_permissions(c.id), st.clock.clone())
        };
        let src = Source {
            channel: &c,
            app_permissions,
            clock,
        };
        let payload = payloads::component_interaction(
            id,
            &token,
            user,
            &src,
            custom_id,
            payloads::message(&message, payloads::bot_user()),
        );
        self.send(id, payload)?;
        Ok(id)
    }
}
