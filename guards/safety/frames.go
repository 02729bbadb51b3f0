package safety

import "strings"

// unframed is a normalised text without the question frame it opens with,
// if any (the longest that matches), so the model reads the request alone,
// in training and in use alike. A frame ("how to", "ways to", "как",
// "какие есть способы") says how a thing is asked, not what is asked; yet
// the sources use frames unevenly (nearly every Russian "какие есть
// способы" in the training data is unsafe, English "ways to" is all but
// absent, and the translated criminal-code prompts open with "How do I"),
// and a model that read them learnt the frame instead of the request: it
// passed "Ways to underreport your income" and flagged "Какие есть способы
// занизить доход".
func unframed(norm string) string {
	frames := [...]string{
		" how to ", " how do i ", " how can i ", " how would i ", " how should i ",
		" ways to ", " what are some ways to ", " what is the best way to ",
		" is there a way to ", " tell me how to ", " explain how to ",
		" can you tell me how to ", " i want to know how to ", " i need to ",
		" как ", " как мне ", " как можно ", " каким образом можно ",
		" какие есть способы ", " какие способы ", " есть ли способ ",
		" подскажи как ", " подскажите как ", " расскажи как ", " объясни как ",
		" как лучше ", " мне нужно ", " хочу узнать как ",
	}
	longest := 0
	for _, f := range frames {
		if len(f) > longest && strings.HasPrefix(norm, f) {
			longest = len(f)
		}
	}
	if longest == 0 {
		return norm
	}
	return norm[longest-1:]
}
