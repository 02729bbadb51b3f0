package kb

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/mapping"
)

// maxKeptChunks is the largest generation whose chunks are kept in memory
// once read: about 15 MB of text at the largest chunk size, and as much
// again in terms. A larger generation is read from bleve on every search.
const maxKeptChunks = 10000

// storedChunk is one chunk as a search reads it: its stored fields, and,
// per language, the distinct terms its indexed text and title hold, by
// their number in the store's dictionary.
type storedChunk struct {
	kbID, chunkID, title, url, tags, heading, text string
	hasCode                                        bool
	terms                                          [][]int32 // indexed like languages; sorted; nil when not kept
	// storedTerms are the terms_<lang> fields as stored, indexed like
	// languages, until the chunk is kept and they are numbered.
	storedTerms []string
}

// holds says whether the chunk's text or title, indexed for language
// lang, holds the term numbered id: whether bleve would locate it there.
func (c *storedChunk) holds(lang int, id int32) bool {
	_, found := slices.BinarySearch(c.terms[lang], id)
	return found
}

// chunkStore reads chunks for searches. A published generation is never
// written again, so a chunk read once reads the same for as long as the
// generation is open. In a generation of at most maxKeptChunks chunks
// (scored with tf-idf), each chunk is decoded once and kept with its terms,
// and searches need neither bleve's stored fields nor its term locations
// for any hit (keep).
type chunkStore struct {
	index bleve.Index
	keep  bool
	byID  sync.Map // doc ID → *keptChunk, when keep

	mu    sync.RWMutex
	terms map[string]int32 // every term of a kept chunk → its number; only grows

	matches sync.Pool // *search.DocumentMatchPool, for topHits
}

func newChunkStore(b bleve.Index, chunks int) *chunkStore {
	keep := chunks <= maxKeptChunks && scoresTFIDF(b.Mapping())
	return &chunkStore{index: b, keep: keep, terms: map[string]int32{}}
}

// scoresTFIDF says whether the index scores with bleve's tf-idf, as this
// package's mapping has it, and topHits finds what Search finds; BM25
// would need the statistics Search gathers first.
func scoresTFIDF(m mapping.IndexMapping) bool {
	im, ok := m.(*mapping.IndexMappingImpl)
	return !ok || im.ScoringModel != "bm25"
}

// chunk is the stored chunk id, which a search just hit. A kept chunk is
// read and its terms numbered once, by the first search that hits it; the searches
// that hit it meanwhile wait for that one, not for each other.
func (cs *chunkStore) chunk(id string) (*storedChunk, error) {
	if !cs.keep {
		return cs.read(id)
	}
	if e, ok := cs.byID.Load(id); ok {
		return e.(*keptChunk).get()
	}
	e := &keptChunk{}
	e.get = sync.OnceValues(func() (*storedChunk, error) {
		c, err := cs.read(id)
		if err != nil {
			cs.byID.CompareAndDelete(id, e) // not kept: a later search reads it again
			return nil, err
		}
		c.terms, c.storedTerms = cs.number(c.storedTerms), nil
		return c, nil
	})
	actual, _ := cs.byID.LoadOrStore(id, e)
	return actual.(*keptChunk).get()
}

// keptChunk is a chunk of the store, read once.
type keptChunk struct {
	get func() (*storedChunk, error)
}

// read decodes the chunk id from bleve's stored fields.
func (cs *chunkStore) read(id string) (*storedChunk, error) {
	doc, err := cs.index.Document(id)
	if err != nil {
		return nil, err
	}
	if doc == nil { // a hit whose document is gone: what bleve says when it loads the fields itself
		return nil, bleve.ErrorIndexReadInconsistency
	}
	d, ok := doc.(*document.Document)
	if !ok {
		return nil, fmt.Errorf("document %s: unexpected type %T", id, doc)
	}
	return decodeChunk(d), nil
}

// decodeChunk reads the stored fields as a search request listing them
// would: a field stored more than once is a list, not a text, and reads as
// empty.
func decodeChunk(doc *document.Document) *storedChunk {
	values := make(map[string]string, 8)
	seen := make(map[string]int, 8)
	for _, f := range doc.Fields {
		seen[f.Name()]++
		if t, ok := f.(*document.TextField); ok {
			values[f.Name()] = t.Text()
		}
	}
	get := func(name string) string {
		if seen[name] != 1 {
			return ""
		}
		return values[name]
	}
	has, _ := strconv.ParseBool(get("has_code"))
	c := &storedChunk{kbID: get("kb_id"), chunkID: get("chunk_id"), title: get("title"), url: get("url"),
		tags: get("tags"), heading: get("heading"), text: get("text"), hasCode: has}
	for _, l := range languages {
		c.storedTerms = append(c.storedTerms, get(l.terms))
	}
	return c
}

// termSep separates the terms of a terms_<lang> field. The analyzers'
// tokenizer cuts text at white space, so no term holds one.
const termSep = "\n"

// chunkTerms are the distinct terms, sorted, that the analyzer finds in a
// chunk's text and title: the terms bleve locates there, stored with the
// chunk (terms_<lang>) so that a search need not analyze its hits again.
func chunkTerms(a analysis.Analyzer, text, title string) []string {
	var terms []string
	for _, field := range []string{text, title} {
		for _, tok := range a.Analyze([]byte(field)) {
			terms = append(terms, string(tok.Term))
		}
	}
	slices.Sort(terms)
	return slices.Compact(terms)
}

// number gives each term its number in the dictionary, adding the new
// ones, and returns each language's distinct numbers, sorted. A chunk's
// terms are numbered before it is kept, so a search that has read its hits
// finds every term they hold in the dictionary. stored are the chunk's
// terms_<lang> fields.
func (cs *chunkStore) number(stored []string) [][]int32 {
	out := make([][]int32, len(stored))
	cs.mu.Lock()
	defer cs.mu.Unlock()
	for i, terms := range stored {
		var ids []int32
		if terms != "" {
			ids = make([]int32, 0, strings.Count(terms, termSep)+1)
		}
		for t := range strings.SplitSeq(terms, termSep) {
			if t == "" {
				continue
			}
			id, ok := cs.terms[t]
			if !ok {
				id = int32(len(cs.terms))
				cs.terms[t] = id
			}
			ids = append(ids, id)
		}
		slices.Sort(ids)
		out[i] = slices.Clip(slices.Compact(ids))
	}
	return out
}

// numbers are the dictionary numbers of the query's terms, indexed like
// them; -1 for a term no kept chunk holds.
func (cs *chunkStore) numbers(terms [][]string) [][]int32 {
	out := make([][]int32, len(terms))
	cs.mu.RLock()
	defer cs.mu.RUnlock()
	for i, ts := range terms {
		out[i] = make([]int32, len(ts))
		for k, t := range ts {
			id, ok := cs.terms[t]
			if !ok {
				id = -1
			}
			out[i][k] = id
		}
	}
	return out
}
