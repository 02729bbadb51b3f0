package offline

// readFound reads the articles of a search_kb result (the JSON of
// kb.Result) as foundArticles' json.Unmarshal would, without its
// reflection: the engine reads every search result of a turn when it
// answers. It takes only the shape json.Marshal writes (every key spelled
// exactly and at most once, no null, valid UTF-8, no escaped surrogate)
// and reports false for anything else, which is left to encoding/json.
// A chunk whose id known holds for its article, one an earlier result
// gave the engine, keeps its id but its heading and text are checked, not
// kept: most chunks of a turn's second and third searches are such.
// relevant is the result's likely_relevant.
func readFound(data string, known func(kbID, chunkID string) bool) (out []searchArticle, relevant, ok bool) {
	r := jsonReader{s: data}
	ok = r.object(func(key string) bool {
		switch key {
		case "query":
			return r.skipStr()
		case "articles":
			out = []searchArticle{}
			return r.array(func() bool {
				var a searchArticle
				ok := r.article(&a, known)
				out = append(out, a)
				return ok
			})
		case "confidence":
			return r.confidence(&relevant)
		}
		return false
	})
	r.space()
	return out, relevant, ok && r.i == len(r.s)
}

// chunksPerArticle is how many chunks search_kb returns an article at
// most (kb's), room enough for an article's chunks as read.
const chunksPerArticle = 3

func (r *jsonReader) article(a *searchArticle, known func(kbID, chunkID string) bool) bool {
	var f float64
	return r.object(func(key string) bool {
		switch key {
		case "kb_id":
			return r.str(&a.KBID)
		case "title":
			return r.str(&a.Title)
		case "url":
			return r.skipStr()
		case "tags":
			return r.array(r.skipStr)
		case "score":
			return r.float(&f)
		case "chunks":
			a.Chunks = make([]searchChunk, 0, chunksPerArticle)
			return r.array(func() bool {
				var c searchChunk
				ok := r.chunk(&c, func(id string) bool { return known != nil && known(a.KBID, id) })
				a.Chunks = append(a.Chunks, c)
				return ok
			})
		}
		return false
	})
}

func (r *jsonReader) chunk(c *searchChunk, known func(id string) bool) bool {
	var f float64
	var b bool
	return r.object(func(key string) bool {
		switch key {
		case "id":
			return r.str(&c.ID)
		case "heading":
			if c.ID != "" && known(c.ID) { // id comes first in search_kb's results
				return r.skipStr()
			}
			return r.str(&c.Heading)
		case "text":
			if c.ID != "" && known(c.ID) {
				return r.skipStr()
			}
			return r.str(&c.Text)
		case "score":
			return r.float(&f)
		case "has_code":
			return r.boolean(&b)
		}
		return false
	})
}

func (r *jsonReader) confidence(relevant *bool) bool {
	var f float64
	var n int
	return r.object(func(key string) bool {
		switch key {
		case "top_score", "mean_top_k", "score_gap":
			return r.float(&f)
		case "n_above_threshold":
			return r.integer(&n)
		case "likely_relevant":
			return r.boolean(relevant)
		}
		return false
	})
}
