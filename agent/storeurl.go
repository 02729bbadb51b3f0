package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// storeOpeners open one kind of store on each backend the settings name.
type storeOpeners[S any] struct {
	postgres, redis func(ctx context.Context, url string) (S, error)
	sqlite          func(path string) (S, error)
	defaultPath     func() (string, error) // the SQLite file when where is empty
}

// openByURL opens the store where names for setting (threads.store,
// memory.store): a postgres:// or redis:// URL, a SQLite file (a path, or
// sqlite:PATH), or, when empty, the default SQLite file. A mistyped folder
// is an error, as for --trace and --output; only the default's folder in
// the user cache dir is made.
func openByURL[S any](ctx context.Context, setting, where string, o storeOpeners[S]) (S, error) {
	var (
		s    S
		zero S
		err  error
	)
	switch {
	case strings.HasPrefix(where, "postgres://"), strings.HasPrefix(where, "postgresql://"):
		s, err = o.postgres(ctx, where)
	case strings.HasPrefix(where, "redis://"), strings.HasPrefix(where, "rediss://"):
		s, err = o.redis(ctx, where)
	default:
		path := strings.TrimPrefix(where, "sqlite:")
		if path == "" {
			if path, err = o.defaultPath(); err != nil {
				return zero, fmt.Errorf("%s: %w", setting, err)
			}
		} else if info, statErr := os.Stat(filepath.Dir(path)); statErr != nil || !info.IsDir() {
			return zero, fmt.Errorf("%s %s: the folder %s does not exist", setting, where, filepath.Dir(path))
		}
		s, err = o.sqlite(path)
	}
	if err != nil {
		return zero, fmt.Errorf("%s %s: %w", setting, redact(where), err)
	}
	return s, nil
}
