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
use tokar_model::command::declare::{self, Declared};
use tokar_model::command::UserArg;
use tokar_model::{Command, Refusal};

/// Every command the bot registers, each installable in servers only.
///
/// "`integration_types`: Installation contexts where the command is available, only for
/// globally-scoped commands. Defaults to your app's configured contexts" (Application Command
/// Object, developers/interactions/application-commands.mdx). An app that allows user installs
/// would otherwise offer `/new` wherever its user is, in servers the bot is not in, where no
/// game can be posted. `GUILD_INSTALL` alone keeps every command to where the bot was added.
/// Discord ignores the field for guild commands (`DISCORD_GUILD_ID`); sending it there is
/// harmless.
///
/// Each command's and option's description is the one declared in
/// [`tokar_model::command::declare`].
pub(crate) fn all() -> Vec<poise::Command<Data, CommandError>> {
    let mut commands = listed();
    for c in &mut commands {
        c.install_context = Some(vec![serenity::InstallationContext::Guild]);
        if let Some(declared) = declare::find(&c.name) {
            describe(c, declared);
        }
    }
    commands
}

/// Sets the descriptions of `command`, its options and its sub-commands from `declared`.
fn describe(command: &mut poise::Command<Data, CommandError>, declared: &Declared) {
    command.description = Some(declared.summary.into());
    for p in &mut command.parameters {
        if let Some(o) = declared.options.iter().find(|o| o.name == p.name) {
            p.description = Some(o.about.into());
        }
    }
    for sub in &mut command.subcommands {
        if let Some(d) = declared.subcommands.iter().find(|d| d.name == sub.name) {
            describe(sub, d);
        }
    }
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

impl GameKind {
    /// The engine's game this choice stands for.
    pub(crate) fn kind(self) -> tokar_engine::catalog::GameKind {
        use tokar_engine::catalog::GameKind as K;
        match self {
            GameKind::Arcana => K::Arcana,
            GameKind::MagicChess => K::MagicChess,
            GameKind::Gladiator => K::Gladiator,
            GameKind::Arachne => K::Arachne,
        }
    }
}

/// A Discord user as a command names them.
pub(crate) fn user_arg(user: &serenity::User) -> UserArg {
    UserArg::from_id(user.id.get())
}

/// A number Discord already bounded (`#[min]`, `#[max]`), as the table counts.
pub(crate) fn count(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

/// Runs one slash command on the table and answers it.
pub(crate) async fn invoke(
    ctx: Context<'_>,
    command: Result<Command, Refusal>,
) -> Result<(), CommandError> {
    invoke_prepared(ctx, command, None).await
}

/// [`invoke`], with `prepare` run before the table is asked, inside the defer timer (see
/// [`serve_prepared`]). A command whose options did not read (`Err`: a duration, a level
/// typed as text) is refused to the invoker here with the line the table would give.
///
/// The interaction is claimed first: when another session of its shard claimed it, nothing
/// here answers it. Once claimed, a failure is told to the invoker here, with the responder
/// that knows whether a public "thinking…" is waiting (see [`Responder::tell`]), and never
/// returned to poise: its error hook would claim the interaction again, find it taken, and say
/// nothing.
pub(crate) async fn invoke_prepared(
    ctx: Context<'_>,
    command: Result<Command, Refusal>,
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
        // A refusal of options that did not read is private too.
        private: command
            .as_ref()
            .map_or(true, |c| declare::is_private(c.name())),
        loading: Default::default(),
    };
    let command = match command {
        Ok(command) => command,
        Err(refusal) => {
            if let Err(e) = responder.tell(refusal.text()).await {
                tracing::warn!(error = %e, "could not tell the player why the command was refused");
            }
            return Ok(());
        }
    };
    let is_new = matches!(command, Command::New(_));
    let request = Request {
        user,
        channel,
        command,
        interaction_token: Some(i.token.clone()),
        // Discord gives the member's permissions in the channel with every interaction.
        manage_server: i
            .member
            .as_ref()
            .and_then(|m| m.permissions)
            .is_some_and(|p| p.manage_guild()),
    };
    if is_new {
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
    if is_new {
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

    /// The commands registered with Discord are exactly the declared ones, each with the
    /// declared options (and sub-commands) in the declared order and the declared
    /// descriptions: a command or option added on one side only fails here.
    #[test]
    fn registered_commands_are_exactly_the_declared_ones() {
        fn same(c: &poise::Command<Data, CommandError>, d: &Declared, path: &str) {
            let params: Vec<&str> = c.parameters.iter().map(|p| &*p.name).collect();
            let options: Vec<&str> = d.options.iter().map(|o| o.name).collect();
            assert_eq!(params, options, "{path}: options");
            assert_eq!(c.description.as_deref(), Some(d.summary), "{path}");
            for p in &c.parameters {
                let about = d.options.iter().find(|o| o.name == p.name).map(|o| o.about);
                assert_eq!(p.description.as_deref(), about, "{path} {}", p.name);
            }
            let subs: Vec<&str> = c.subcommands.iter().map(|s| &*s.name).collect();
            let declared: Vec<&str> = d.subcommands.iter().map(|s| s.name).collect();
            assert_eq!(subs, declared, "{path}: sub-commands");
            for (sub, d) in c.subcommands.iter().zip(d.subcommands) {
                same(sub, d, &format!("{path} {}", d.name));
            }
        }
        let registered = all();
        let mut names: Vec<&str> = registered.iter().map(|c| &*c.name).collect();
        let mut declared: Vec<&str> = declare::COMMANDS.iter().map(|c| c.name).collect();
        names.sort_unstable();
        declared.sort_unstable();
        assert_eq!(names, declared);
        for c in &registered {
            let d = declare::find(&c.name).expect("declared");
            same(c, d, &format!("/{}", c.name));
        }
    }

    /// Games live in server channels: a command that creates or changes one is offered only
    /// in servers (a game made in a DM with the bot could not be seen by its opponent).
    #[test]
    fn game_commands_are_offered_only_in_servers() {
        for c in all() {
            let game_bound = !declare::is_private(&c.name);
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
