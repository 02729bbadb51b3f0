// Package safety is the Guardian's safety classifier at the door: the
// Classifier interface every guard provider implements, and Rules, the
// offline provider "rules".
//
// Rules runs a lexicon (lexicon.yaml, embedded; replaceable with
// LoadLexicon) of Russian and English word patterns over the normalised
// message and maps what fires to the nine Qwen3Guard categories with level
// Controversial or Unsafe. Normalisation undoes the usual evasions (mixed
// case, ё, control and invisible characters, Latin/Cyrillic look-alike
// letters read per word, leetspeak, words spelled out or a whole message
// spaced out letter by letter; where spaced letters read two ways, both
// readings are checked; where single spaces leave no word boundary at all,
// the lexicon's terms are looked for inside the joined letters, see
// flat.go), patterns match from word starts so a stem covers
// Russian inflections, and each entry may require a second word nearby
// ("kill" near "my neighbour") and name benign contexts that cancel it
// ("kill" near "process"), so "how do I kill a hung process" stays Safe.
//
// It is a lexicon, not a model: it knows the phrasings it was written for
// and their variants. tests/testdata/safety_labelled.jsonl and
// safety_holdout.jsonl measure it; TestLabelledSet prints precision and
// recall per level.
package safety
