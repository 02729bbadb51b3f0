package kb

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// generations lists the generation folders of a cache dir.
func generations(t *testing.T, cache string) []string {
	t.Helper()
	entries, err := os.ReadDir(cache)
	require.NoError(t, err)
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), genPrefix) {
			out = append(out, e.Name())
		}
	}
	return out
}

func mustPointer(t *testing.T, cache string) string {
	t.Helper()
	name, err := readPointer(cache)
	require.NoError(t, err)
	require.NotEmpty(t, name, "a generation is published")
	return name
}

// articleDocs are n small articles, each about its own word and about "alpha".
func articleDocs(n int, version string) []Doc {
	docs := make([]Doc, n)
	for i := range docs {
		body := fmt.Sprintf("# Article %d\n\nalpha word%d %s\n\n## More\n\nmore text %s", i, i, version, version)
		docs[i] = Doc{Path: fmt.Sprintf("a%02d.md", i), KBID: fmt.Sprintf("a%02d", i), Title: fmt.Sprintf("Article %d", i),
			Body: body, Hash: version + fmt.Sprint(i)}
	}
	return docs
}

func TestManyIndexesOpenAndSyncAFreshCacheAtOnce(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "cache") // not even created yet
	docs := articleDocs(20, "v1")
	const n = 16
	var added atomic.Int64
	results := make([]Result, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			<-start
			idx, err := Open(cache, DefaultOptions())
			if err != nil {
				errs <- err
				return
			}
			defer idx.Close()
			stats, err := idx.Sync(docs)
			if err != nil {
				errs <- err
				return
			}
			added.Add(int64(stats.Added))
			if stats.Chunks != 2*len(docs) || stats.Files != len(docs) {
				errs <- fmt.Errorf("stats %+v", stats)
			}
			results[i], err = idx.Search("word7 alpha", 3)
			if err != nil {
				errs <- err
			}
		})
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	assert.Equal(t, int64(len(docs)), added.Load(), "one Sync built the index; the others found it published")
	for i, r := range results {
		require.NotEmpty(t, r.Articles, "index %d", i)
		assert.Equal(t, "a07", r.Articles[0].KBID, "index %d", i)
		assert.True(t, r.Confidence.LikelyRelevant, "index %d", i)
	}
	assert.Equal(t, []string{mustPointer(t, cache)}, generations(t, cache))
}

func TestReadersKeepSearchingWhileRebuildsSwapGenerations(t *testing.T) {
	cache := t.TempDir()
	v1, v2 := articleDocs(8, "v1"), articleDocs(9, "v2")
	first, err := Open(cache, DefaultOptions())
	require.NoError(t, err)
	defer first.Close()
	_, err = first.Sync(v1)
	require.NoError(t, err)

	ctx, stop := context.WithCancel(context.Background())
	var searches atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	search := func(idx *Index) {
		res, err := idx.Search("alpha word3", 5)
		switch {
		case err != nil:
			errs <- err
		case len(res.Articles) == 0 || res.Articles[0].KBID != "a03":
			errs <- fmt.Errorf("search found %+v", res.Articles)
		}
		searches.Add(1)
	}
	for range 4 { // readers that open the cache afresh for every search
		wg.Go(func() {
			for ctx.Err() == nil {
				idx, err := Open(cache, DefaultOptions())
				if err != nil {
					errs <- err
					return
				}
				search(idx)
				idx.Close()
			}
		})
	}
	wg.Go(func() { // a reader that keeps its generation open throughout
		for ctx.Err() == nil {
			search(first)
		}
	})
	rebuilds := 0
	for i := range 6 {
		idx, err := Open(cache, DefaultOptions())
		require.NoError(t, err)
		docs := v1
		if i%2 == 0 {
			docs = v2
		}
		stats, err := idx.Sync(docs)
		require.NoError(t, err)
		rebuilds += stats.Added + stats.Updated + stats.Removed
		idx.Close()
	}
	stop()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	assert.Equal(t, 6*9, rebuilds, "every Sync rebuilt: v1 and v2 differ in every file")
	assert.Positive(t, searches.Load())
	gens := generations(t, cache)
	assert.Len(t, gens, 2, "replaced generations are removed but the last one")
	assert.Contains(t, gens, mustPointer(t, cache))
}

func TestAnOpenIndexDoesNotStopOthersFromSyncingOrSearching(t *testing.T) {
	cache := t.TempDir()
	opts := DefaultOptions()
	opts.LockTimeout = 100 * time.Millisecond
	holder, err := Open(cache, opts)
	require.NoError(t, err)
	defer holder.Close()
	_, err = holder.Sync(articleDocs(3, "v1"))
	require.NoError(t, err)

	// With the old single index, the holder's file lock made the next Open
	// give up after LockTimeout.
	other, err := Open(cache, opts)
	require.NoError(t, err, "a second reader opens the index another one holds")
	defer other.Close()
	stats, err := other.Sync(articleDocs(3, "v1"))
	require.NoError(t, err)
	assert.Equal(t, 3, stats.Unchanged)
	changed := append(articleDocs(3, "v1"), Doc{Path: "new.md", KBID: "new", Title: "New", Body: "# New\n\nbeta", Hash: "n"})
	stats, err = other.Sync(changed)
	require.NoError(t, err, "and rebuilds it while the first still has it open")
	assert.Equal(t, 1, stats.Added)

	res, err := other.Search("beta", 5)
	require.NoError(t, err)
	require.Len(t, res.Articles, 1)
	res, err = holder.Search("beta", 5)
	require.NoError(t, err)
	assert.Empty(t, res.Articles, "the holder keeps searching the generation it opened")
	res, err = holder.Search("alpha word1", 5)
	require.NoError(t, err)
	assert.Equal(t, "a01", res.Articles[0].KBID)
	_, err = holder.Sync(changed)
	require.NoError(t, err)
	res, err = holder.Search("beta", 5)
	require.NoError(t, err)
	assert.Len(t, res.Articles, 1, "until its own Sync moves it to the new one")
}

func TestSyncTakesAGenerationPublishedWhileItWaited(t *testing.T) {
	cache := t.TempDir()
	docs := articleDocs(5, "v1")
	late, err := Open(cache, DefaultOptions()) // opened before anything was published
	require.NoError(t, err)
	defer late.Close()
	builder, err := Open(cache, DefaultOptions())
	require.NoError(t, err)
	_, err = builder.Sync(docs)
	require.NoError(t, err)
	builder.Close()
	published := mustPointer(t, cache)

	stats, err := late.Sync(docs)
	require.NoError(t, err)
	assert.Equal(t, SyncStats{Files: 5, Unchanged: 5, Chunks: 10}, stats, "nothing rebuilt")
	assert.Equal(t, published, mustPointer(t, cache))
	res, err := late.Search("word2", 5)
	require.NoError(t, err)
	assert.Equal(t, "a02", res.Articles[0].KBID)
}

func TestSyncWaitsForTheBuildLockOnlyAsLongAsAllowed(t *testing.T) {
	cache := t.TempDir()
	opts := DefaultOptions()
	opts.LockTimeout = 200 * time.Millisecond
	idx, err := Open(cache, opts)
	require.NoError(t, err)
	defer idx.Close()
	_, err = idx.Sync(articleDocs(2, "v1"))
	require.NoError(t, err)

	lock, err := lockBuild(context.Background(), cache, time.Second)
	require.NoError(t, err)
	defer lock.release()

	_, err = idx.Sync(articleDocs(2, "v1"))
	require.NoError(t, err, "an index already in line with its docs needs no lock")

	began := time.Now()
	_, err = idx.Sync(articleDocs(2, "v2"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "another process has been rebuilding it for more than 200ms (lock_timeout)")
	assert.Contains(t, err.Error(), cache)
	assert.Less(t, time.Since(began), 3*time.Second)

	opts.LockTimeout = time.Hour
	patient, err := Open(cache, opts)
	require.NoError(t, err)
	defer patient.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	began = time.Now()
	_, err = patient.SyncContext(ctx, articleDocs(2, "v2"))
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(began), 2*time.Second, "the context ends the wait, not the hour")

	res, err := idx.Search("v1 word1", 5)
	require.NoError(t, err)
	assert.Equal(t, "a01", res.Articles[0].KBID, "the published generation is untouched")
}

func TestSyncWithAnEndedContextPublishesNothing(t *testing.T) {
	cache := t.TempDir()
	idx, err := Open(cache, DefaultOptions())
	require.NoError(t, err)
	defer idx.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = idx.SyncContext(ctx, articleDocs(2, "v1"))
	require.ErrorIs(t, err, context.Canceled)
	name, err := readPointer(cache)
	require.NoError(t, err)
	assert.Empty(t, name)
	assert.Empty(t, generations(t, cache))
}

func TestADamagedCacheIsRebuilt(t *testing.T) {
	docs := articleDocs(3, "v1")
	tests := []struct {
		name   string
		damage func(t *testing.T, cache, gen string)
	}{
		{"pointer to a missing generation", func(t *testing.T, cache, gen string) {
			require.NoError(t, os.RemoveAll(filepath.Join(cache, gen)))
		}},
		{"pointer of garbage", func(t *testing.T, cache, _ string) {
			require.NoError(t, os.WriteFile(filepath.Join(cache, pointerName), []byte("../../etc\n"), 0o644))
		}},
		{"manifest of garbage", func(t *testing.T, cache, gen string) {
			require.NoError(t, os.WriteFile(filepath.Join(cache, gen, manifestName), []byte("{"), 0o644))
		}},
		{"index files gone", func(t *testing.T, cache, gen string) {
			require.NoError(t, os.RemoveAll(filepath.Join(cache, gen, bleveName)))
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cache := t.TempDir()
			idx, err := Open(cache, DefaultOptions())
			require.NoError(t, err)
			_, err = idx.Sync(docs)
			require.NoError(t, err)
			require.NoError(t, idx.Close())
			tc.damage(t, cache, mustPointer(t, cache))
			// What a crashed build and an older version leave behind.
			require.NoError(t, os.MkdirAll(filepath.Join(cache, "gen-99", bleveName), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(cache, "manifest.json"), []byte("{}"), 0o644))

			idx, err = Open(cache, DefaultOptions())
			require.NoError(t, err)
			defer idx.Close()
			stats, err := idx.Sync(docs)
			require.NoError(t, err)
			assert.Equal(t, 3, stats.Added)
			res, err := idx.Search("word1", 5)
			require.NoError(t, err)
			assert.Equal(t, "a01", res.Articles[0].KBID)
			assert.Equal(t, []string{mustPointer(t, cache)}, generations(t, cache))
			assert.NoFileExists(t, filepath.Join(cache, "manifest.json"))
		})
	}
}
