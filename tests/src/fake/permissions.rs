//! Permission bits, from the table in Discord's developer documentation (Topics >
//! Permissions > Permissions > Bitwise Permission Flags).

pub const ADD_REACTIONS: u64 = 1 << 6;
pub const VIEW_CHANNEL: u64 = 1 << 10;
pub const SEND_MESSAGES: u64 = 1 << 11;
pub const EMBED_LINKS: u64 = 1 << 14;
pub const ATTACH_FILES: u64 = 1 << 15;
pub const READ_MESSAGE_HISTORY: u64 = 1 << 16;
pub const MENTION_EVERYONE: u64 = 1 << 17;
pub const USE_EXTERNAL_EMOJIS: u64 = 1 << 18;
pub const USE_APPLICATION_COMMANDS: u64 = 1 << 31;
/// Lets its holder unarchive a locked thread and post in it.
pub const MANAGE_THREADS: u64 = 1 << 34;
pub const CREATE_PUBLIC_THREADS: u64 = 1 << 35;
pub const CREATE_PRIVATE_THREADS: u64 = 1 << 36;
/// "The `SEND_MESSAGES` permission is not inherited; users must have
/// `SEND_MESSAGES_IN_THREADS` to send a message in a thread" (Topics > Permissions >
/// Inherited Permissions (Threads)).
pub const SEND_MESSAGES_IN_THREADS: u64 = 1 << 38;

/// What the bot holds in a guild channel unless a test says otherwise: everything it needs,
/// but not MANAGE_THREADS. The same set the fake always sent as `app_permissions`.
pub const DEFAULT: u64 = 2_248_473_465_835_073;

/// The app's permissions in a DM with its bot user: "`app_permissions` includes
/// `ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE` permissions for (G)DMs with other users,
/// and additionally includes `USE_EXTERNAL_EMOJIS` for DMs with the app's bot user"
/// (Interactions > Receiving and Responding > Interaction Structure), on top of what any DM
/// allows.
pub const BOT_DM: u64 = VIEW_CHANNEL
    | SEND_MESSAGES
    | READ_MESSAGE_HISTORY
    | ADD_REACTIONS
    | USE_APPLICATION_COMMANDS
    | ATTACH_FILES
    | EMBED_LINKS
    | MENTION_EVERYONE
    | USE_EXTERNAL_EMOJIS;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_holds_what_the_bot_needs() {
        for bit in [
            VIEW_CHANNEL,
            SEND_MESSAGES,
            EMBED_LINKS,
            ATTACH_FILES,
            CREATE_PUBLIC_THREADS,
            SEND_MESSAGES_IN_THREADS,
        ] {
            assert_eq!(DEFAULT & bit, bit);
        }
        assert_eq!(DEFAULT & MANAGE_THREADS, 0);
    }
}
