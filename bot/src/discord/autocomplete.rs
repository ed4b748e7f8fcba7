//! Autocomplete for slash command options: the table lists the candidates (legal actions,
//! squares, the player's games, armies...) filtered by what was typed; at most 25 reach
//! Discord.

use std::time::Duration;

use poise::serenity_prelude as serenity;
use serenity::{AutocompleteChoice, CreateAutocompleteResponse};
use tracing::warn;

use super::answer::truncate;
use super::data::{channel_ref, user_ref, Context};

/// Discord's limits on autocomplete answers.
const MAX_CHOICES: usize = 25;
const MAX_CHOICE_TEXT: usize = 100;
/// An autocomplete answer later than 3 s is dropped by Discord; give up a little earlier.
const BUDGET: Duration = Duration::from_millis(2500);

/// Asks the table for the candidates of `option`. `game_number` says whether the command's
/// `game` option is a game number that narrows the candidates (it is not in /rules).
async fn complete(
    ctx: Context<'_>,
    option: &str,
    typed: &str,
    game_number: bool,
) -> CreateAutocompleteResponse {
    let poise::Context::Application(actx) = ctx else {
        return CreateAutocompleteResponse::new();
    };
    let i = actx.interaction;
    let user = user_ref(&i.user, i.member.as_deref());
    let channel = channel_ref(i.channel_id, i.channel.as_ref(), i.guild_id);
    let game = if game_number {
        i.data
            .options
            .iter()
            .find(|o| o.name == "game")
            .and_then(|o| o.value.as_i64())
            .and_then(|n| u64::try_from(n).ok())
            .filter(|n| *n > 0)
    } else {
        None
    };
    let table = &ctx.data().table;
    let found = tokio::time::timeout(
        BUDGET,
        table.autocomplete(&user, &channel, option, typed, game),
    )
    .await;
    let candidates = match found {
        Ok(candidates) => candidates,
        Err(_) => {
            warn!(
                option,
                typed, "autocomplete too slow; answering with no choices"
            );
            Vec::new()
        }
    };
    CreateAutocompleteResponse::new().set_choices(to_choices(option, candidates))
}

/// The table's (label, value) pairs as Discord choices. A game number is an integer option, so
/// its values must be numbers; anything else is a string cut to Discord's 100 characters.
fn to_choices(option: &str, candidates: Vec<(String, String)>) -> Vec<AutocompleteChoice> {
    candidates
        .into_iter()
        .filter_map(|(label, value)| {
            let label = truncate(&label, MAX_CHOICE_TEXT);
            if option == "game" {
                value
                    .trim()
                    .trim_start_matches('#')
                    .parse::<i64>()
                    .ok()
                    .map(|n| AutocompleteChoice::new(label, n))
            } else if value.chars().count() > MAX_CHOICE_TEXT || value.is_empty() {
                // A cut value would be a different value: leave it out.
                None
            } else {
                Some(AutocompleteChoice::new(label, value))
            }
        })
        .take(MAX_CHOICES)
        .collect()
}

macro_rules! completer {
    ($($fn_name:ident => $option:literal, $game_number:literal;)*) => {$(
        #[doc = concat!("Candidates for the `", $option, "` option.")]
        pub(crate) async fn $fn_name(ctx: Context<'_>, typed: &str) -> CreateAutocompleteResponse {
            complete(ctx, $option, typed, $game_number).await
        }
    )*};
}

completer! {
    game => "game", true;
    action => "action", true;
    square => "square", true;
    unit => "unit", false;
    reminder => "reminder", true;
    deadline => "deadline", true;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_are_capped_at_25_and_game_values_are_numbers() {
        let many: Vec<(String, String)> = (1..=40)
            .map(|n| (format!("Game #{n}"), format!("#{n}")))
            .collect();
        let choices = to_choices("game", many);
        assert_eq!(choices.len(), 25);
        let json = serde_json::to_value(&choices[0]).unwrap();
        assert_eq!(json["value"], 1);
        assert_eq!(json["name"], "Game #1");
    }

    #[test]
    fn overlong_string_values_are_left_out_not_cut() {
        let choices = to_choices(
            "action",
            vec![
                ("long".into(), "x".repeat(101)),
                ("e2-e4".into(), "e2-e4".into()),
            ],
        );
        assert_eq!(choices.len(), 1);
        assert_eq!(serde_json::to_value(&choices[0]).unwrap()["value"], "e2-e4");
    }
}
