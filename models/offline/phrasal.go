package offline

// A verb and the particle after it are one word with a meaning of its
// own: "turn off the lights" is not about the "turn" of a conversation,
// nor "turn down the volume" about a turn. The off-topic score counts
// such a pair by how often the knowledge base says the pair.
//
// "on" is left out: after a noun it is a preposition more often than a
// particle ("a payment on a check", "the PIN on my card").
var phrasalParticles = map[string]bool{"off": true, "up": true, "down": true}

// phrasalVerbs are the words of text followed by a particle, each with
// its particle.
func phrasalVerbs(text string) map[string]string {
	var out map[string]string
	prev := ""
	eachWord(text, nil, func(w []byte) {
		word := string(w)
		if phrasalParticles[word] && prev != "" && !phrasalParticles[prev] {
			if out == nil {
				out = map[string]string{}
			}
			out[prev] = word
		}
		prev = word
	})
	return out
}

func phrasalKey(stem, particle string) string { return stem + " " + particle }
