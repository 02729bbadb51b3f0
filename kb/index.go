package kb

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/lang/ru"
	"github.com/blevesearch/bleve/v2/mapping"
	bolterrors "go.etcd.io/bbolt/errors"
)

// schemaVersion changes whenever the index mapping or chunking changes, so
// an index built by an older binary is rebuilt rather than misread.
const schemaVersion = 1

// Options tune search.
type Options struct {
	// RelevanceThreshold is the chunk score that counts as relevant.
	RelevanceThreshold float64
	// MeanTopK is how many top chunk scores mean_top_k averages.
	MeanTopK int
	// LockTimeout bounds the wait for an index another process holds open.
	LockTimeout time.Duration
}

// DefaultOptions are the options of the default configuration.
func DefaultOptions() Options {
	return Options{RelevanceThreshold: 0.5, MeanTopK: 5, LockTimeout: 5 * time.Second}
}

// Index is a persistent full-text index of a knowledge base. Search is safe
// for concurrent use; Sync is not, and must not run alongside Search.
type Index struct {
	dir      string
	opts     Options
	bleve    bleve.Index
	manifest manifest
}

// manifest records what is indexed, file by file.
type manifest struct {
	Schema int                  `json:"schema"`
	Files  map[string]fileEntry `json:"files"`
}

type fileEntry struct {
	Hash   string `json:"hash"`
	KBID   string `json:"kb_id"`
	Chunks int    `json:"chunks"`
}

// SyncStats says what a Sync did.
type SyncStats struct {
	Files     int      `json:"files"`
	Added     int      `json:"added"`
	Updated   int      `json:"updated"`
	Unchanged int      `json:"unchanged"`
	Removed   int      `json:"removed"`
	Chunks    int      `json:"chunks"`
	Errors    []string `json:"errors,omitempty"`
}

// DefaultCacheDir is where the index of the knowledge base at kbDir lives
// unless configured: one folder per absolute path under the user cache dir.
func DefaultCacheDir(kbDir string) string {
	abs, err := filepath.Abs(kbDir)
	if err != nil {
		abs = kbDir
	}
	sum := sha256.Sum256([]byte(abs))
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	return filepath.Join(base, "sgrgraph", "kb-"+hex.EncodeToString(sum[:6]))
}

// Open opens the index in cacheDir, creating it (or rebuilding it when it was
// written with another schema) as needed.
func Open(cacheDir string, opts Options) (*Index, error) {
	if opts.RelevanceThreshold < 0 || opts.RelevanceThreshold > 1 {
		return nil, fmt.Errorf("relevance_threshold: %g is outside [0,1]", opts.RelevanceThreshold)
	}
	if opts.MeanTopK < 1 {
		return nil, fmt.Errorf("mean_top_k: %d is below 1", opts.MeanTopK)
	}
	if opts.LockTimeout <= 0 {
		return nil, fmt.Errorf("lock_timeout: %s must be positive", opts.LockTimeout)
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return nil, fmt.Errorf("cache dir: %w", err)
	}
	idx := &Index{dir: cacheDir, opts: opts}
	idx.manifest = idx.readManifest()
	if idx.manifest.Schema != schemaVersion {
		if err := os.RemoveAll(idx.blevePath()); err != nil {
			return nil, fmt.Errorf("cache dir: %w", err)
		}
		idx.manifest = manifest{Schema: schemaVersion, Files: map[string]fileEntry{}}
	}
	// Without a timeout a second process on the same cache would wait
	// forever for the first one's file lock.
	b, err := bleve.OpenUsing(idx.blevePath(), map[string]any{"bolt_timeout": opts.LockTimeout.String()})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("index %s: in use by another process (waited %s); wait for it, or pass another --cache-dir", idx.blevePath(), opts.LockTimeout)
	}
	if errors.Is(err, bleve.ErrorIndexPathDoesNotExist) {
		b, err = bleve.New(idx.blevePath(), indexMapping())
		idx.manifest.Files = map[string]fileEntry{}
	}
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", idx.blevePath(), err)
	}
	idx.bleve = b
	// Written at once, so that the next Open sees a current index and waits
	// for its lock instead of taking it for an old schema and removing it.
	if err := idx.writeManifest(); err != nil {
		b.Close()
		return nil, fmt.Errorf("cache dir: %w", err)
	}
	return idx, nil
}

func (idx *Index) blevePath() string    { return filepath.Join(idx.dir, "index.bleve") }
func (idx *Index) manifestPath() string { return filepath.Join(idx.dir, "manifest.json") }

func (idx *Index) readManifest() manifest {
	var m manifest
	data, err := os.ReadFile(idx.manifestPath())
	if err != nil || json.Unmarshal(data, &m) != nil || m.Files == nil {
		return manifest{}
	}
	return m
}

func (idx *Index) writeManifest() error {
	data, err := json.MarshalIndent(idx.manifest, "", " ")
	if err != nil {
		return err
	}
	tmp := idx.manifestPath() + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, idx.manifestPath())
}

// Close releases the index.
func (idx *Index) Close() error { return idx.bleve.Close() }

func indexMapping() mapping.IndexMapping {
	text := func(analyzer string, vectors bool) *mapping.FieldMapping {
		f := bleve.NewTextFieldMapping()
		f.Analyzer = analyzer
		f.Store = false
		f.IncludeTermVectors = vectors
		return f
	}
	stored := func() *mapping.FieldMapping {
		f := bleve.NewTextFieldMapping()
		f.Index = false
		f.Analyzer = keyword.Name
		return f
	}
	doc := bleve.NewDocumentMapping()
	doc.AddFieldMappingsAt("text_en", text(en.AnalyzerName, true))
	doc.AddFieldMappingsAt("text_ru", text(ru.AnalyzerName, true))
	doc.AddFieldMappingsAt("title_en", text(en.AnalyzerName, true))
	doc.AddFieldMappingsAt("title_ru", text(ru.AnalyzerName, true))
	for _, name := range []string{"kb_id", "chunk_id", "title", "url", "tags", "heading", "text", "has_code"} {
		doc.AddFieldMappingsAt(name, stored())
	}
	m := bleve.NewIndexMapping()
	m.DefaultMapping = doc
	m.DefaultAnalyzer = en.AnalyzerName
	return m
}

// Sync brings the index in line with docs: new and changed files are
// (re)indexed, unchanged files are skipped, files no longer present are
// removed. A duplicate kb_id is reported and its second file skipped.
func (idx *Index) Sync(docs []Doc) (SyncStats, error) {
	stats := SyncStats{Files: len(docs)}
	seen := map[string]bool{}
	owner := map[string]string{}
	batch := idx.bleve.NewBatch()
	for _, d := range docs {
		if prev, dup := owner[d.KBID]; dup {
			stats.Errors = append(stats.Errors, fmt.Sprintf("%s: kb_id %q is already used by %s; file skipped", d.Path, d.KBID, prev))
			continue
		}
		owner[d.KBID] = d.Path
		seen[d.Path] = true
		old, known := idx.manifest.Files[d.Path]
		if known && old.Hash == d.Hash && old.KBID == d.KBID {
			stats.Unchanged++
			stats.Chunks += old.Chunks
			continue
		}
		if known {
			deleteChunks(batch, d.Path, old.Chunks)
			stats.Updated++
		} else {
			stats.Added++
		}
		chunks := chunkDoc(d)
		for n, c := range chunks {
			if err := batch.Index(docID(d.Path, n), record(d, c)); err != nil {
				return stats, fmt.Errorf("index %s: %w", d.Path, err)
			}
		}
		idx.manifest.Files[d.Path] = fileEntry{Hash: d.Hash, KBID: d.KBID, Chunks: len(chunks)}
		stats.Chunks += len(chunks)
	}
	for p, old := range idx.manifest.Files {
		if !seen[p] {
			deleteChunks(batch, p, old.Chunks)
			delete(idx.manifest.Files, p)
			stats.Removed++
		}
	}
	if err := idx.bleve.Batch(batch); err != nil {
		return stats, fmt.Errorf("index: %w", err)
	}
	return stats, idx.writeManifest()
}

func deleteChunks(b *bleve.Batch, path string, n int) {
	for i := 0; i < n; i++ {
		b.Delete(docID(path, i))
	}
}

func docID(path string, n int) string { return path + "#" + strconv.Itoa(n) }

func record(d Doc, c chunk) map[string]any {
	return map[string]any{
		"kb_id": d.KBID, "chunk_id": c.ID, "title": d.Title, "url": d.URL, "tags": strings.Join(d.Tags, ","),
		"heading": c.Heading, "text": c.Text, "has_code": strconv.FormatBool(c.HasCode),
		"text_en": c.Text, "text_ru": c.Text, "title_en": d.Title, "title_ru": d.Title,
	}
}
