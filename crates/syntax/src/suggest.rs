//! "Did you mean": the known words nearest a misspelt one, by edit
//! distance (a swap of two neighbours counts as one edit), ignoring case
//! (a word in another case is the nearest of all).

/// The candidates nearest `word`, at most three, all at the same distance,
/// when that distance is small for the word's length (one edit in a short
/// word, up to a third of the letters in a long one). Empty when nothing is
/// near: a guess far off helps less than none.
pub(crate) fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let lower = word.to_lowercase();
    let mut best: Vec<&'a str> = Vec::new();
    let mut best_distance = usize::MAX;
    for candidate in candidates {
        let distance = strsim::damerau_levenshtein(&lower, &candidate.to_lowercase());
        let allowed = (lower.chars().count().max(candidate.chars().count()) / 3).max(1);
        if candidate == word || distance > allowed {
            continue;
        }
        if distance < best_distance {
            best_distance = distance;
            best.clear();
        }
        if distance == best_distance && !best.contains(&candidate) && best.len() < 3 {
            best.push(candidate);
        }
    }
    best
}

/// "did you mean `a`?" (or "`a`, `b` or `c`"), or `None` when nothing is
/// near.
pub fn did_you_mean<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    match nearest(word, candidates).as_slice() {
        [] => None,
        [one] => Some(format!("did you mean `{one}`?")),
        [init @ .., last] => {
            let init: Vec<String> = init.iter().map(|c| format!("`{c}`")).collect();
            Some(format!("did you mean {} or `{last}`?", init.join(", ")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_words_are_suggested_and_far_ones_are_not() {
        let keys = ["batch_size", "batching_window", "function_timeout", "type"];
        assert_eq!(nearest("batchsize", keys), ["batch_size"]);
        assert_eq!(nearest("Batch_Size", keys), ["batch_size"], "another case is the nearest of all");
        assert_eq!(nearest("tpye", keys), ["type"], "a swap is one edit");
        assert_eq!(nearest("retention", keys), Vec::<&str>::new());
        assert_eq!(
            did_you_mean("SQS01", ["SQS001", "SQS010", "SQS101"]).as_deref(),
            Some("did you mean `SQS001`, `SQS010` or `SQS101`?")
        );
        assert_eq!(did_you_mean("zzz", ["SQS001"]), None);
    }
}
