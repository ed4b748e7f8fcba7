//! The slash commands, one file per group. Each command only gathers its options and hands
//! them to the table through [`invoke`]; the table decides everything else.

mod account;
mod games;
mod info;
mod league;
mod standings;
mod turns;

use poise::serenity_prelude as serenity;

use super::answer::{claim, serve_prepared, Prepare, Responder};
use super::data::{channel_ref, user_ref, CommandError, Context, Data};
use super::errors::report;
use crate::table::{Request, ThreadRefusal, ThreadSupport};

/// Every command the bot registers, each installable in servers only.
///
/// "`integration_types`: Installation contexts where the command is available, only for
/// globally-scoped commands. Defaults to your app's configured contexts" (Application Command
/// Object, developers/interactions/application-commands.mdx). An app that allows user installs
/// would otherwise offer `/new` wherever its user is, in servers the bot is not in, where no
/// game can be posted. `GUILD_INSTALL` alone keeps every command to where the bot was added.
/// Discord ignores the field for guild commands (`DISCORD_GUILD_ID`); sending it there is
/// harmless.
pub(crate) fn all() -> Vec<poise::Command<Data, CommandError>> {
    let mut commands = listed();
    for c in &mut commands {
        c.install_context = Some(vec![serenity::InstallationContext::Guild]);
    }
    commands
}

fn listed() -> Vec<poise::Command<Data, CommandError>> {
    vec![
        games::new(),
        games::accept(),
        games::decline(),
        games::join(),
        games::games(),
        games::history(),
        games::export(),
        games::replay(),
        games::resume(),
        games::follow(),
        turns::play(),
        turns::board(),
        turns::moves(),
        turns::hint(),
        turns::hand(),
        turns::undo(),
        turns::resign(),
        turns::draw(),
        turns::claim(),
        info::rules(),
        info::help(),
        standings::leaderboard(),
        standings::stats(),
        account::settings(),
        account::vacation(),
        league::league(),
        account::server(),
    ]
}

/// Commands whose answer is for the invoker only: when slow, they are deferred ephemerally.
const PRIVATE: &[&str] = &[
    "hint", "moves", "hand", "games", "rules", "help", "settings", "vacation", "follow", "server",
];

/// The game families a new game can be.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub(crate) enum GameKind {
    #[name = "arcana"]
    Arcana,
    #[name = "magic-chess"]
    MagicChess,
    #[name = "gladiator"]
    Gladiator,
    #[name = "arachne"]
    Arachne,
}

/// Options as the table takes them: (name, value) strings, users as `<@id>`.
#[derive(Default)]
pub(crate) struct Options(Vec<(String, String)>);

impl Options {
    pub fn new() -> Self {
        Self::default()
    }
    /// Adds an option the player gave; absent ones are left out.
    pub fn with(mut self, name: &str, value: Option<impl ToString>) -> Self {
        if let Some(value) = value {
            self.0.push((name.to_owned(), value.to_string()));
        }
        self
    }
    pub fn user(self, name: &str, user: Option<&serenity::User>) -> Self {
        self.with(name, user.map(|u| format!("<@{}>", u.id.get())))
    }
    pub fn choice(self, name: &str, choice: Option<impl poise::ChoiceParameter>) -> Self {
        self.with(name, choice.map(|c| c.name()))
    }
    /// Adds the options written in one free-text field as `name:value` pairs
    /// separated by spaces (`partners:yes freeze-cards:12`), the same syntax
    /// the console reads. The table checks names and values, so a word without
    /// a colon goes through as a name with no value and is refused there.
    pub fn pairs(mut self, text: Option<&str>) -> Self {
        for word in text.unwrap_or("").split_whitespace() {
            let (name, value) = word.split_once(':').unwrap_or((word, ""));
            self.0.push((name.to_owned(), value.to_owned()));
        }
        self
    }
}

/// Runs one slash command on the table and answers it.
pub(crate) async fn invoke(
    ctx: Context<'_>,
    command: &str,
    options: Options,
) -> Result<(), CommandError> {
    invoke_prepared(ctx, command, options, None).await
}

/// [`invoke`], with `prepare` run before the table is asked, inside the defer timer (see
/// [`serve_prepared`]).
///
/// The interaction is claimed first: when another session of its shard claimed it, nothing
/// here answers it. Once claimed, a failure is told to the invoker here, with the responder
/// that knows whether a public "thinking…" is waiting (see [`Responder::tell`]), and never
/// returned to poise: its error hook would claim the interaction again, find it taken, and say
/// nothing.
pub(crate) async fn invoke_prepared(
    ctx: Context<'_>,
    command: &str,
    options: Options,
    prepare: Option<Prepare>,
) -> Result<(), CommandError> {
    let poise::Context::Application(actx) = ctx else {
        return Err(CommandError::Unsupported("prefix command"));
    };
    let i = actx.interaction;
    if !claim(ctx.data(), i.id).await? {
        return Ok(());
    }
    let user = user_ref(&i.user, i.member.as_deref());
    let mut channel = channel_ref(i.channel_id, i.channel.as_ref(), i.guild_id);
    // Any command may start a game (/new, /accept), so any one says whether its thread may open.
    channel.threads = thread_permissions(channel.threads, i.app_permissions);
    let responder = Responder {
        http: &actx.serenity_context().http,
        id: i.id,
        token: &i.token,
        acknowledged: actx.has_sent_initial_response,
        invoker: user.clone(),
        channel: channel.clone(),
        private: PRIVATE.contains(&command),
        loading: Default::default(),
    };
    let request = Request {
        user,
        channel,
        command: command.to_owned(),
        options: options.0,
        interaction_token: Some(i.token.clone()),
        // Discord gives the member's permissions in the channel with every interaction.
        manage_server: i
            .member
            .as_ref()
            .and_then(|m| m.permissions)
            .is_some_and(|p| p.manage_guild()),
    };
    if command == "new" {
        if let Some(missing) = missing_permissions(i.app_permissions, i.channel.as_ref()) {
            if let Err(e) = responder.tell(&missing).await {
                tracing::warn!(error = %e, "could not tell the player what /new lacks");
            }
            return Ok(());
        }
    }
    if let Err(e) = serve_prepared(&responder, ctx.data(), request, prepare).await {
        report(&responder, &e).await;
        return Ok(());
    }
    if command == "new" {
        if let Some(note) = missing_history(i.app_permissions) {
            // After the answer, so that a first response can still carry the announcement.
            if let Err(e) = responder.tell(note).await {
                tracing::warn!(error = %e, "could not tell the player what the channel lacks");
            }
        }
    }
    Ok(())
}

/// What a channel offers a game's thread once the bot's permissions there are known:
/// opening a public (or announcement) thread needs Create Public Threads, and posting in
/// it Send Messages in Threads, which Send Messages does not give ("The `SEND_MESSAGES`
/// permission has no effect in threads; users must have `SEND_MESSAGES_IN_THREADS` to
/// talk in a thread", Topics > Threads). Without either, the game stays in its channel
/// and the channel is told why, instead of a thread where every message would fail.
pub(crate) fn thread_permissions(
    support: ThreadSupport,
    have: Option<serenity::Permissions>,
) -> ThreadSupport {
    use serenity::Permissions as P;
    let (ThreadSupport::Public | ThreadSupport::Announcement, Some(have)) = (support, have) else {
        return support;
    };
    if !have.contains(P::CREATE_PUBLIC_THREADS) {
        ThreadSupport::Refused(ThreadRefusal::Permission)
    } else if !have.contains(P::SEND_MESSAGES_IN_THREADS) {
        ThreadSupport::Refused(ThreadRefusal::PostInThreads)
    } else {
        support
    }
}

/// A note for the creator of a game when the bot cannot read the channel's history: a
/// message whose sending was interrupted is looked for there before it is sent again
/// (after Discord's nonce window), and "If the current user is missing the
/// `READ_MESSAGE_HISTORY` permission in the channel, then no messages will be returned"
/// (Resources > Message > Get Channel Messages). The game goes on without it.
fn missing_history(have: Option<serenity::Permissions>) -> Option<&'static str> {
    let have = have?;
    (!have.contains(serenity::Permissions::READ_MESSAGE_HISTORY)).then_some(
        "I lack Read Message History in this channel: after a long Discord outage a message \
         of this game could arrive twice. Grant it to Tokar in the channel's permissions.",
    )
}

/// What the bot needs in a channel to run a game there: to see it, to post in it (in a thread,
/// to post in threads), and to attach the pictures. Discord sends the bot's permissions in the
/// channel with every interaction (`app_permissions`), so a game is refused before it is made
/// rather than going silent at its first message.
fn missing_permissions(
    have: Option<serenity::Permissions>,
    channel: Option<&serenity::PartialChannel>,
) -> Option<String> {
    use serenity::Permissions as P;
    let have = have?;
    let in_thread = channel.is_some_and(|c| super::data::is_thread(c.kind));
    let send = if in_thread {
        (P::SEND_MESSAGES_IN_THREADS, "Send Messages in Threads")
    } else {
        (P::SEND_MESSAGES, "Send Messages")
    };
    let needed = [
        (P::VIEW_CHANNEL, "View Channel"),
        send,
        (P::ATTACH_FILES, "Attach Files"),
    ];
    let missing: Vec<&str> = needed
        .iter()
        .filter(|(p, _)| !have.contains(*p))
        .map(|(_, name)| *name)
        .collect();
    (!missing.is_empty()).then(|| {
        format!(
            "I cannot run a game in this channel: I lack {}. Grant them to Tokar in the channel's \
             permissions, or start the game in another channel.",
            missing.join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Discord refuses the whole registration if one name or description breaks its rules.
    #[test]
    fn every_command_fits_discord_registration_rules() {
        let commands = all();
        assert_eq!(commands.len(), 27);
        let name_ok = |n: &str| {
            (1..=32).contains(&n.chars().count())
                && n.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
        };
        for c in &commands {
            assert!(name_ok(&c.name), "command name {}", c.name);
            let d = c.description.as_deref().unwrap_or("");
            assert!(
                (1..=100).contains(&d.chars().count()),
                "description of /{}: {d:?}",
                c.name
            );
            assert!(c.parameters.len() <= 25);
            for p in &c.parameters {
                assert!(name_ok(&p.name), "/{} option {}", c.name, p.name);
                let d = p.description.as_deref().unwrap_or("");
                assert!(
                    (1..=100).contains(&d.chars().count()),
                    "/{} {}: {d:?}",
                    c.name,
                    p.name
                );
            }
            // Required options must come before optional ones.
            let first_optional = c.parameters.iter().position(|p| !p.required);
            if let Some(i) = first_optional {
                assert!(
                    c.parameters[i..].iter().all(|p| !p.required),
                    "/{} option order",
                    c.name
                );
            }
        }
    }

    /// Games live in server channels: a command that creates or changes one is offered only
    /// in servers (a game made in a DM with the bot could not be seen by its opponent).
    #[test]
    fn game_commands_are_offered_only_in_servers() {
        for c in all() {
            let game_bound = !PRIVATE.contains(&&*c.name);
            assert_eq!(c.guild_only, game_bound, "/{}", c.name);
        }
    }

    #[test]
    fn new_names_the_permissions_to_grant() {
        use poise::serenity_prelude::Permissions as P;
        let all = P::VIEW_CHANNEL | P::SEND_MESSAGES | P::ATTACH_FILES;
        assert_eq!(missing_permissions(Some(all), None), None);
        assert_eq!(missing_permissions(None, None), None);
        let text = missing_permissions(Some(P::VIEW_CHANNEL), None).unwrap();
        assert!(text.contains("Send Messages, Attach Files"), "{text}");
    }

    #[test]
    fn thread_permissions_keep_the_game_in_its_channel_with_the_reason() {
        use poise::serenity_prelude::Permissions as P;
        let both = P::CREATE_PUBLIC_THREADS | P::SEND_MESSAGES_IN_THREADS;
        let public = ThreadSupport::Public;
        assert_eq!(thread_permissions(public, Some(both)), public);
        assert_eq!(
            thread_permissions(ThreadSupport::Announcement, Some(both)),
            ThreadSupport::Announcement
        );
        assert_eq!(
            thread_permissions(public, Some(P::SEND_MESSAGES_IN_THREADS)),
            ThreadSupport::Refused(ThreadRefusal::Permission)
        );
        assert_eq!(
            thread_permissions(public, Some(P::CREATE_PUBLIC_THREADS)),
            ThreadSupport::Refused(ThreadRefusal::PostInThreads)
        );
        // Unknown permissions leave it to Discord's answer; a refusal stays one.
        assert_eq!(thread_permissions(public, None), public);
        let voice = ThreadSupport::Refused(ThreadRefusal::Voice);
        assert_eq!(thread_permissions(voice, Some(both)), voice);
        assert_eq!(
            thread_permissions(ThreadSupport::Unknown, Some(P::empty())),
            ThreadSupport::Unknown
        );
    }

    #[test]
    fn new_notes_a_missing_read_message_history() {
        use poise::serenity_prelude::Permissions as P;
        assert!(missing_history(Some(P::VIEW_CHANNEL)).is_some());
        assert!(missing_history(Some(P::READ_MESSAGE_HISTORY)).is_none());
        assert!(missing_history(None).is_none());
    }

    #[test]
    fn game_kinds_use_the_table_names() {
        use poise::ChoiceParameter as _;
        let names: Vec<_> = GameKind::list().iter().map(|c| c.name.clone()).collect();
        assert_eq!(names, ["arcana", "magic-chess", "gladiator", "arachne"]);
    }
}
