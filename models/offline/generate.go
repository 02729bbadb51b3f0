package offline

//go:generate go run ./internal/spamtrain -data ../../tests/testdata/offtopic/train -weights spam_weights.bin -background background.tsv
