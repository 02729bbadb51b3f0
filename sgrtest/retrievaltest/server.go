// Package retrievaltest is a test double of the servers a knowledge base's
// retrieval may call, on a loopback port: an OpenAI-compatible embeddings
// endpoint (POST /v1/embeddings) and a reranker, in both request shapes
// (POST /v1/rerank with "documents", as vLLM and Jina take it; POST /rerank
// with "texts", as TEI takes it). It is scripted, not a model: a text's
// vector counts its words, each word first mapped through a table of
// synonyms and then hashed to a dimension, so texts that share words or
// synonyms point the same way and every answer is the same for the same
// text. A rerank score is the share of the query's words (after synonyms)
// a document holds, plus a boost for each scripted phrase it contains. It
// injects faults on request and records every call.
package retrievaltest

import (
	"encoding/json"
	"hash/fnv"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
)

// Fault is what the server does to one call.
type Fault struct {
	// Status answers with this HTTP status and an error body.
	Status int
	// Delay waits before answering, or until the client gives up.
	Delay time.Duration
	// BadJSON answers 200 with a body that is not JSON.
	BadJSON bool
	// Dims answers vectors of this many dimensions instead.
	Dims int
	// Fewer answers one vector, or one score, fewer than asked for.
	Fewer bool
}

// Call is one request the server got.
type Call struct {
	Path  string // /v1/embeddings, /v1/rerank or /rerank
	Model string
	Query string   // rerank
	Texts []string // the texts embedded, or the documents reranked
	Fault Fault
}

// Server is a running scripted server.
type Server struct {
	// URL is the embeddings base URL, ending in /v1 as clients expect.
	URL string
	// RerankURL takes the vLLM / Jina shape; TEIRerankURL takes TEI's.
	RerankURL, TEIRerankURL string

	dims     int
	synonyms map[string]string
	boosts   map[string]float64
	faults   func(Call) Fault

	mu    sync.Mutex
	calls []Call
	srv   *httptest.Server
}

// Option configures a Server.
type Option func(*Server)

// WithDims sets the vectors' size (default 64).
func WithDims(n int) Option { return func(s *Server) { s.dims = n } }

// WithSynonyms maps words (lower case) to the word they count as.
func WithSynonyms(m map[string]string) Option { return func(s *Server) { s.synonyms = m } }

// WithBoosts adds score to every reranked document holding a phrase (any case).
func WithBoosts(m map[string]float64) Option { return func(s *Server) { s.boosts = m } }

// WithFaults decides each call's fault from the call (which has no Fault
// yet). It may be called from several goroutines.
func WithFaults(f func(Call) Fault) Option { return func(s *Server) { s.faults = f } }

// New starts a server; Close stops it.
func New(opts ...Option) *Server {
	s := &Server{dims: 64, faults: func(Call) Fault { return Fault{} }}
	for _, o := range opts {
		o(s)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/embeddings", s.embeddings)
	mux.HandleFunc("POST /v1/rerank", s.rerank)
	mux.HandleFunc("POST /rerank", s.rerank)
	s.srv = httptest.NewServer(mux)
	s.URL = s.srv.URL + "/v1"
	s.RerankURL, s.TEIRerankURL = s.srv.URL+"/v1/rerank", s.srv.URL+"/rerank"
	return s
}

// Close stops the server; calls after it fail to connect.
func (s *Server) Close() { s.srv.Close() }

// Calls returns a copy of the calls received so far.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.calls)
}

// Embedded counts the texts embedded so far (faulty calls included).
func (s *Server) Embedded() int {
	n := 0
	for _, c := range s.Calls() {
		if c.Path == "/v1/embeddings" {
			n += len(c.Texts)
		}
	}
	return n
}

// Vector is the unit vector the server answers for text: its words'
// counts, hashed to dims dimensions (zero for a text of no words).
func (s *Server) Vector(text string, dims int) []float64 {
	v := make([]float64, dims)
	for _, w := range s.words(text) {
		h := fnv.New32a()
		h.Write([]byte(w))
		v[h.Sum32()%uint32(dims)]++
	}
	var norm float64
	for _, x := range v {
		norm += x * x
	}
	if norm > 0 {
		for i := range v {
			v[i] /= math.Sqrt(norm)
		}
	}
	return v
}

// Score is the rerank score the server answers for doc.
func (s *Server) Score(query, doc string) float64 {
	q, d := s.words(query), s.words(doc)
	score := 0.0
	if len(q) > 0 {
		n := 0
		for _, w := range q {
			if slices.Contains(d, w) {
				n++
			}
		}
		score = float64(n) / float64(len(q))
	}
	lower := strings.ToLower(doc)
	for phrase, boost := range s.boosts {
		if strings.Contains(lower, strings.ToLower(phrase)) {
			score += boost
		}
	}
	return score
}

func (s *Server) words(text string) []string {
	fields := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for i, w := range fields {
		if to, ok := s.synonyms[w]; ok {
			fields[i] = to
		}
	}
	return fields
}

// begin records a call and applies its fault's delay; false when the
// answer is already written (a fault status) or the client left.
func (s *Server) begin(w http.ResponseWriter, r *http.Request, c Call) (Fault, bool) {
	c.Fault = s.faults(c)
	s.mu.Lock()
	s.calls = append(s.calls, c)
	s.mu.Unlock()
	if c.Fault.Delay > 0 {
		select {
		case <-time.After(c.Fault.Delay):
		case <-r.Context().Done():
			return c.Fault, false
		}
	}
	if c.Fault.Status != 0 {
		writeError(w, c.Fault.Status, "scripted failure")
		return c.Fault, false
	}
	if c.Fault.BadJSON {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"data": [ not json`))
		return c.Fault, false
	}
	return c.Fault, true
}

func (s *Server) embeddings(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model string          `json:"model"`
		Input json.RawMessage `json:"input"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, "invalid JSON: "+err.Error())
		return
	}
	var texts []string
	if err := json.Unmarshal(req.Input, &texts); err != nil {
		var one string
		if err := json.Unmarshal(req.Input, &one); err != nil {
			writeError(w, http.StatusBadRequest, "input: a string or a list of strings")
			return
		}
		texts = []string{one}
	}
	f, ok := s.begin(w, r, Call{Path: r.URL.Path, Model: req.Model, Texts: texts})
	if !ok {
		return
	}
	dims := s.dims
	if f.Dims > 0 {
		dims = f.Dims
	}
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float64 `json:"embedding"`
	}
	out := struct {
		Object string         `json:"object"`
		Data   []item         `json:"data"`
		Model  string         `json:"model"`
		Usage  map[string]int `json:"usage"`
	}{Object: "list", Model: req.Model, Data: []item{}, Usage: map[string]int{"prompt_tokens": len(texts), "total_tokens": len(texts)}}
	for i, t := range texts {
		if f.Fewer && i == len(texts)-1 {
			break
		}
		out.Data = append(out.Data, item{Object: "embedding", Index: i, Embedding: s.Vector(t, dims)})
	}
	writeJSON(w, out)
}

func (s *Server) rerank(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model     string   `json:"model"`
		Query     string   `json:"query"`
		Documents []string `json:"documents"`
		Texts     []string `json:"texts"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, "invalid JSON: "+err.Error())
		return
	}
	tei := r.URL.Path == "/rerank"
	docs := req.Documents
	if tei {
		docs = req.Texts
	}
	if req.Query == "" || len(docs) == 0 {
		field := "documents"
		if tei {
			field = "texts"
		}
		writeError(w, http.StatusUnprocessableEntity, "query and "+field+" are required")
		return
	}
	f, ok := s.begin(w, r, Call{Path: r.URL.Path, Model: req.Model, Query: req.Query, Texts: docs})
	if !ok {
		return
	}
	type result struct {
		Index int     `json:"index"`
		Score float64 `json:"score"`
	}
	results := make([]result, 0, len(docs))
	for i, d := range docs {
		if f.Fewer && i == len(docs)-1 {
			break
		}
		results = append(results, result{Index: i, Score: s.Score(req.Query, d)})
	}
	// Best first, as the real servers answer.
	slices.SortStableFunc(results, func(a, b result) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
	if tei {
		writeJSON(w, results)
		return
	}
	type jina struct {
		Index          int               `json:"index"`
		Document       map[string]string `json:"document"`
		RelevanceScore float64           `json:"relevance_score"`
	}
	out := struct {
		Model   string `json:"model"`
		Results []jina `json:"results"`
	}{Model: req.Model, Results: []jina{}}
	for _, r := range results {
		out.Results = append(out.Results, jina{Index: r.Index, Document: map[string]string{"text": docs[r.Index]}, RelevanceScore: r.Score})
	}
	writeJSON(w, out)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg, "type": "scripted", "code": status}})
}
