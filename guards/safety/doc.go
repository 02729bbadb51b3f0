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
// Beside the lexicon runs a trained model (model.go): a logistic regression
// over hashed word and character n-grams of the normalised message, giving
// Safe or one of the nine categories, for the phrasings the lexicon does
// not list. calibrate.go turns the model's probability and the lexicon's
// findings into one calibrated probability that the message is harmful,
// reported in the verdict's Scores, and combine.go reads the level off it,
// precision first: Unsafe only when the guard is sure, Controversial in
// the uncertain band and whenever a lexicon entry fires, and a benign
// context the lexicon names still holds. `go generate ./guards/safety`
// trains the model again from testdata/train and the development parts of
// the labelled sets TrainingSets names (internal/train), byte for byte,
// fits its calibration, and writes the lexicon decoded and its triggers
// parsed (internal/parselexicon), which a process reads instead of doing
// it on its first message.
//
// tests/testdata/safety_labelled.jsonl and safety_holdout.jsonl measure the
// whole (TestLabelledSet prints precision and recall per level); the
// held-out fifth of the training sources measures it on data it was not
// trained on (TestHeldOut).
package safety

//go:generate go run ./internal/train
//go:generate go run ./internal/parselexicon
