package main

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
	"github.com/rs/zerolog"
)

// redisLog writes go-redis's own lines ("connection pool: failed to dial
// after 5 attempts") in the process's log, at debug level: the command's
// error already says the store or queue cannot be reached, and the
// library's default printed them on standard error whatever --log-level.
type redisLog struct{ log zerolog.Logger }

func (l redisLog) Printf(_ context.Context, format string, v ...any) {
	l.log.Debug().Str("node", "redis").Msg(fmt.Sprintf(format, v...))
}

// logRedisTo sends go-redis's lines to log when it logs debug lines, and
// nowhere otherwise. go-redis keeps one logger a process; the command sets
// it as it sets up its own log.
func logRedisTo(log zerolog.Logger) {
	if log.GetLevel() > zerolog.DebugLevel {
		log = zerolog.Nop()
	}
	redis.SetLogger(redisLog{log})
}
