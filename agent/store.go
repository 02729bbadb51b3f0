package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/checkpoint/postgres"
	"github.com/sgrgraph/sgrgraph/checkpoint/redis"
	"github.com/sgrgraph/sgrgraph/checkpoint/sqlite"
)

// OpenStore opens the checkpoint store where names: a postgres:// or
// redis:// URL, a SQLite file (a path, or sqlite:PATH), or, when empty, the
// SQLite file under the user cache directory. The caller closes it.
func OpenStore(ctx context.Context, where string) (checkpoint.Store, error) {
	var (
		s   checkpoint.Store
		err error
	)
	switch {
	case strings.HasPrefix(where, "postgres://"), strings.HasPrefix(where, "postgresql://"):
		s, err = postgres.Open(ctx, where)
	case strings.HasPrefix(where, "redis://"), strings.HasPrefix(where, "rediss://"):
		s, err = redis.Open(ctx, where)
	default:
		path := strings.TrimPrefix(where, "sqlite:")
		if path == "" {
			if path, err = sqlite.DefaultPath(); err != nil {
				return nil, fmt.Errorf("store: %w", err)
			}
		} else if info, statErr := os.Stat(filepath.Dir(path)); statErr != nil || !info.IsDir() {
			// A mistyped folder is an error, as for --trace and --output;
			// only the default's folder in the user cache dir is made.
			return nil, fmt.Errorf("store %s: the folder %s does not exist", where, filepath.Dir(path))
		}
		s, err = sqlite.Open(path)
	}
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", redact(where), err)
	}
	return s, nil
}

// redact hides a URL's password in messages.
func redact(where string) string {
	at := strings.LastIndex(where, "@")
	scheme := strings.Index(where, "://")
	if at < 0 || scheme < 0 || at < scheme {
		return where
	}
	user := where[scheme+3 : at]
	if i := strings.Index(user, ":"); i >= 0 {
		return where[:scheme+3] + user[:i] + ":***" + where[at:]
	}
	return where
}
