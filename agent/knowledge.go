package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sgrgraph/sgrgraph/docs"
	"github.com/sgrgraph/sgrgraph/kb"
)

// Knowledge is an opened knowledge base: its articles and their index.
type Knowledge struct {
	Docs  []kb.Doc
	Index *kb.Index
	Stats kb.SyncStats
	// Source names where the articles came from: a folder, or "embedded".
	Source string
}

// OpenKnowledge loads the articles of c.Dir, or the embedded documentation
// when c.Dir is empty, and brings their index up to date. Files that fail
// to load are reported in the stats and the others are indexed. Ending ctx
// stops the loading and the indexing.
func OpenKnowledge(ctx context.Context, c kb.Config) (*Knowledge, error) {
	return openKnowledge(ctx, c, func([]kb.Doc) {})
}

// openKnowledge is OpenKnowledge, calling loaded with the articles once
// they are read and before their index is opened, so that work that needs
// only the articles can start.
func openKnowledge(ctx context.Context, c kb.Config, loaded func([]kb.Doc)) (*Knowledge, error) {
	var docsFound []kb.Doc
	var loadErrs []error
	k := &Knowledge{Source: c.Dir}
	cache := c.CacheDir
	if c.Dir == "" {
		k.Source = "embedded"
		docsFound, loadErrs = kb.LoadFSContext(ctx, docs.FS, ".")
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
		return nil, fmt.Errorf("kb.dir %s: no Markdown articles (*.md) found", k.Source)
	}
	if len(docsFound) == 0 {
		return nil, fmt.Errorf("kb.dir %s: no article could be read: %w", k.Source, errors.Join(loadErrs...))
	}
	loaded(docsFound)
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
	for _, e := range loadErrs {
		stats.Errors = append(stats.Errors, e.Error())
	}
	k.Docs, k.Index, k.Stats = docsFound, idx, stats
	return k, nil
}

// Close closes the index.
func (k *Knowledge) Close() error { return k.Index.Close() }

// Corpus is the text of every article, for the offline engine's vocabulary.
func (k *Knowledge) Corpus() []string { return corpus(k.Docs) }

func corpus(docs []kb.Doc) []string {
	out := make([]string, len(docs))
	for i, d := range docs {
		out[i] = d.Title + "\n" + d.Text()
	}
	return out
}
