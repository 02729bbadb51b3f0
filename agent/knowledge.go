package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"

	openaiembed "github.com/cloudwego/eino-ext/components/embedding/openai"

	"github.com/sgrgraph/sgrgraph/docs"
	"github.com/sgrgraph/sgrgraph/guards"
	"github.com/sgrgraph/sgrgraph/kb"
	"github.com/sgrgraph/sgrgraph/models/offline"
	"github.com/sgrgraph/sgrgraph/outbound"
)

// Knowledge is an opened knowledge base: its articles and their index.
type Knowledge struct {
	Docs  []kb.Doc
	Index *kb.Index
	Stats kb.SyncStats
	// Source names where the articles came from: a folder, or "embedded".
	Source string
	// Vectors says what bringing the vector index in line did, when
	// kb.embeddings is set (docs/retrieval.md).
	Vectors kb.VectorStats
}

// OpenKnowledge loads the articles of c.Dir, or the embedded documentation
// when c.Dir is empty, and brings their index up to date, and their vector
// index when c.Embeddings is set. Files that fail
// to load are reported in the stats and the others are indexed. Ending ctx
// stops the loading and the indexing.
func OpenKnowledge(ctx context.Context, c kb.Config) (*Knowledge, error) {
	return openKnowledge(ctx, c, func([]kb.Doc, func() *offline.Reading) {})
}

// openKnowledge is OpenKnowledge, calling loaded with the articles once
// they are read and before their index is opened, so that work that needs
// only the articles can start; with them, what gives them read into words
// for the offline engine when that is kept (the embedded articles'), else
// nil.
func openKnowledge(ctx context.Context, c kb.Config, loaded func([]kb.Doc, func() *offline.Reading)) (*Knowledge, error) {
	var docsFound []kb.Doc
	var loadErrs []error
	var read func() *offline.Reading // the articles read into words; nil: read by the engine
	k := &Knowledge{Source: c.Dir}
	cache := c.CacheDir
	if c.Dir == "" {
		k.Source = "embedded"
		e := embeddedArticles()
		docsFound, loadErrs, read = cloneDocs(e.docs), slices.Clone(e.errs), embeddedReading
		if cache == "" {
			base, err := os.UserCacheDir()
			if err != nil {
				base = os.TempDir()
			}
			cache = filepath.Join(base, "sgrgraph", "kb-embedded")
		}
	} else {
		docsFound, loadErrs = kb.LoadDirContext(ctx, c.Dir, kb.LoadOptions{FollowExternalLinks: c.FollowExternalLinks})
		if cache == "" {
			cache = kb.DefaultCacheDir(c.Dir)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(docsFound) == 0 && len(loadErrs) == 0 {
		return nil, fmt.Errorf("kb.dir %s: no Markdown articles (*.md, *.markdown, *.mdx) found", k.Source)
	}
	if len(docsFound) == 0 {
		return nil, fmt.Errorf("kb.dir %s: no article could be read: %w", k.Source, errors.Join(loadErrs...))
	}
	loaded(docsFound, read)
	opts := kb.DefaultOptions()
	opts.RelevanceThreshold = c.RelevanceThreshold
	idx, err := kb.Open(cache, opts)
	if err != nil {
		return nil, err
	}
	stats, err := idx.SyncContext(ctx, docsFound)
	if err != nil {
		idx.Close()
		return nil, err
	}
	if c.Embeddings.Enabled() || c.Rerank.Enabled() {
		// Searches past bleve: an endpoint that fails here fails start-up,
		// unless kb.fallback is bm25.
		var parts kb.RetrievalParts
		if c.Embeddings.Enabled() {
			if parts.Embedder, err = NewEmbedder(ctx, c.Embeddings); err != nil {
				idx.Close()
				return nil, err
			}
		}
		if k.Vectors, err = idx.UseRetrieval(ctx, c, parts); err != nil {
			idx.Close()
			return nil, err
		}
	}
	for _, e := range loadErrs {
		stats.Errors = append(stats.Errors, e.Error())
	}
	k.Docs, k.Index, k.Stats = docsFound, idx, stats
	return k, nil
}

// NewEmbedder is the embedder kb.embeddings configures: eino-ext's
// OpenAI-compatible embedding component (Ollama, TEI, vLLM, OpenAI serve
// /v1/embeddings) over an outbound client, so that each call is bounded
// by c.Timeout and retried, at most c.Retry.Attempts times, on connection
// errors, 429 and 5xx.
func NewEmbedder(ctx context.Context, c kb.EmbeddingsConfig) (kb.Embedder, error) {
	client := outbound.Client("embeddings", c.Retry, nil, outbound.Timeouts{Call: c.Timeout})
	e, err := openaiembed.NewEmbedder(ctx, &openaiembed.EmbeddingConfig{BaseURL: c.BaseURL, APIKey: c.APIKey, Model: c.Model, HTTPClient: client})
	if err != nil {
		return nil, fmt.Errorf("kb.embeddings.base_url: %w", err)
	}
	return kb.EmbedFunc(func(ctx context.Context, texts []string) ([][]float64, error) { return e.EmbedStrings(ctx, texts) }), nil
}

// embeddedArticles are the embedded articles and their corpus, read once a
// process, as the templates and the guard's lexicon are: they are the same
// for every agent, and reading them (a copy, a hash and the front matter
// of each) and making the corpus were most of what opening the embedded
// knowledge base allocated. Loading an embedded folder cannot block, so it
// needs no context; each agent gets a copy of the list (cloneDocs), and
// the corpus is only read.
var embeddedArticles = sync.OnceValue(func() articles {
	d, errs := kb.LoadFS(docs.FS, ".")
	return articles{docs: d, errs: errs, corpus: corpus(d)}
})

// embeddedReading is the embedded articles read into words for the offline
// engine, once a process, for the same reason, and in the goroutine that
// builds the first engine (startEngine), as New would read them.
var embeddedReading = sync.OnceValue(func() *offline.Reading { return offline.Read(embeddedArticles().corpus) })

type articles struct {
	docs   []kb.Doc
	errs   []error
	corpus []string
}

// cloneDocs copies the list of articles and their tags: the texts are
// strings, which no one can change.
func cloneDocs(docs []kb.Doc) []kb.Doc {
	out := slices.Clone(docs)
	for i := range out {
		out[i].Tags = slices.Clone(out[i].Tags)
	}
	return out
}

// Close closes the index.
func (k *Knowledge) Close() error { return k.Index.Close() }

// Corpus is the text of every article, for the offline engine's vocabulary.
func (k *Knowledge) Corpus() []string { return corpus(k.Docs) }

// startPublished finds, in a goroutine of its own, the values of the
// articles that read as personal data: what the knowledge base publishes.
func startPublished(docs []kb.Doc) func() (guards.Published, error) {
	return started(func() (guards.Published, error) { return guards.PublishedIn(corpus(docs)...), nil })
}

func corpus(docs []kb.Doc) []string {
	out := make([]string, len(docs))
	for i, d := range docs {
		out[i] = d.Title + "\n" + d.Text()
	}
	return out
}
