package safety

import (
	"hash/fnv"
	"strings"
)

// questionFrames are openings a request can be asked in, by language: each
// is followed by the same kind of phrase (a bare verb in English, an
// infinitive in Russian), so one stands for another. They say how a thing
// is asked, not what is asked; yet the sources use them unevenly (nearly
// every Russian "какие есть способы" in the training data is unsafe, and
// English "ways to" is all but absent), and a model trained on the rows as
// they are learns the frame instead of the request.
func questionFrames(lang string) []string {
	switch lang {
	case "en":
		return []string{
			" how to ", " how do i ", " how can i ", " how would i ", " how should i ",
			" ways to ", " what are some ways to ", " what is the best way to ",
			" is there a way to ", " tell me how to ", " explain how to ",
			" can you tell me how to ", " i want to know how to ", " i need to ",
		}
	case "ru":
		return []string{
			" как ", " как мне ", " как можно ", " каким образом можно ",
			" какие есть способы ", " какие способы ", " есть ли способ ",
			" подскажи как ", " подскажите как ", " расскажи как ", " объясни как ",
			" как лучше ", " мне нужно ", " хочу узнать как ",
		}
	}
	return nil
}

// reframed is a normalised text that opens with a question frame, opened
// with another frame of its language instead, chosen by a hash of the text
// so training stays reproducible. It reports false for a text that opens
// with no frame.
func reframed(norm, lang string) (string, bool) {
	frames := questionFrames(lang)
	match := -1
	for i, f := range frames {
		if strings.HasPrefix(norm, f) && (match < 0 || len(f) > len(frames[match])) {
			match = i
		}
	}
	if match < 0 {
		return "", false
	}
	h := fnv.New32a()
	h.Write([]byte(norm))
	other := int(h.Sum32() % uint32(len(frames)-1))
	if other >= match {
		other++
	}
	return frames[other] + norm[len(frames[match]):], true
}
