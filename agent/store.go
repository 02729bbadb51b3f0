package agent

import (
	"context"
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
	return openByURL(ctx, "store", where, storeOpeners[checkpoint.Store]{
		postgres:    func(ctx context.Context, url string) (checkpoint.Store, error) { return postgres.Open(ctx, url) },
		redis:       func(ctx context.Context, url string) (checkpoint.Store, error) { return redis.Open(ctx, url) },
		sqlite:      func(path string) (checkpoint.Store, error) { return sqlite.Open(path) },
		defaultPath: sqlite.DefaultPath,
	})
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
