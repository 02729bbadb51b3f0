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
	var prev []byte
	eachWord(text, nil, func(w []byte) {
		if phrasal(prev, w) {
			if out == nil {
				out = map[string]string{}
			}
			out[string(prev)] = string(w)
		}
		prev = append(prev[:0], w...)
	})
	return out
}

// phrasal: w is a particle that makes one word with the word before it,
// prev (a particle after a particle, "up down", makes none).
func phrasal(prev, w []byte) bool {
	return len(prev) > 0 && phrasalParticles[string(w)] && !phrasalParticles[string(prev)]
}

func phrasalKey(stem, particle string) string { return stem + " " + particle }
