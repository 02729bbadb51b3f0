package runs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/robfig/cron/v3"
	"github.com/rs/zerolog"
)

// Cron is a turn run on a schedule: each tick of Schedule submits a run
// of Spec. Crons are kept in the queue's Redis beside the runs.
type Cron struct {
	ID       string `json:"id"`
	Owner    string `json:"-"`
	Schedule string `json:"schedule"`
	// Spec is the turn each tick runs. With ThreadPrefix set, each run
	// gets a thread of its own: ThreadPrefix and the run's id.
	Spec         Spec      `json:"-"`
	ThreadPrefix string    `json:"-"`
	Created      time.Time `json:"created_at"`
	// Next is when it fires next.
	Next time.Time `json:"next_run_at"`
}

// cronParser reads five fields, six with seconds first, or a descriptor
// (@hourly, @every 30s).
var cronParser = cron.NewParser(cron.SecondOptional | cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// ParseSchedule checks a cron schedule; the error says what is wrong.
func ParseSchedule(s string) (cron.Schedule, error) {
	if len(s) > 200 {
		return nil, fmt.Errorf("schedule: %d bytes, over the limit of 200", len(s))
	}
	sched, err := cronParser.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("schedule: %q: %w (five fields, six with seconds first, or @every 30s)", s, err)
	}
	return sched, nil
}

func (q *Queue) cronKey(id string) string { return q.opts.Prefix + "cron:" + id }
func (q *Queue) cronsKey() string         { return q.opts.Prefix + "crons" } // a sorted set: ids by next tick (Unix ms)

// AddCron records c for owner and schedules its first tick.
func (q *Queue) AddCron(ctx context.Context, owner string, c Cron) (Cron, error) {
	sched, err := ParseSchedule(c.Schedule)
	if err != nil {
		return Cron{}, err
	}
	var b [9]byte
	_, _ = rand.Read(b[:])
	c.ID, c.Owner, c.Created = "cron_"+hex.EncodeToString(b[:]), owner, time.Now().UTC().Truncate(time.Millisecond)
	c.Next = sched.Next(c.Created)
	data, err := json.Marshal(cronRecord{Cron: c, Owner: owner, Spec: c.Spec, ThreadPrefix: c.ThreadPrefix})
	if err != nil {
		return Cron{}, fmt.Errorf("runs: cron: %w", err)
	}
	cctx, cancel := q.call(ctx)
	defer cancel()
	pipe := q.client.TxPipeline()
	pipe.Set(cctx, q.cronKey(c.ID), data, 0)
	pipe.ZAdd(cctx, q.cronsKey(), redis.Z{Score: float64(c.Next.UnixMilli()), Member: c.ID})
	if _, err := pipe.Exec(cctx); err != nil {
		return Cron{}, fmt.Errorf("runs: add cron: %w", err)
	}
	return c, nil
}

// cronRecord is a Cron as stored: with the fields the API does not show.
type cronRecord struct {
	Cron
	Owner        string `json:"owner"`
	Spec         Spec   `json:"spec"`
	ThreadPrefix string `json:"thread_prefix,omitempty"`
}

func (q *Queue) readCron(ctx context.Context, id string) (Cron, error) {
	cctx, cancel := q.call(ctx)
	defer cancel()
	data, err := q.client.Get(cctx, q.cronKey(id)).Bytes()
	if errors.Is(err, redis.Nil) {
		return Cron{}, ErrNotFound
	}
	if err != nil {
		return Cron{}, fmt.Errorf("runs: cron %s: %w", id, err)
	}
	var r cronRecord
	if err := json.Unmarshal(data, &r); err != nil {
		return Cron{}, fmt.Errorf("runs: cron %s: %w", id, err)
	}
	c := r.Cron
	c.Owner, c.Spec, c.ThreadPrefix = r.Owner, r.Spec, r.ThreadPrefix
	if next, err := q.client.ZScore(cctx, q.cronsKey(), id).Result(); err == nil {
		c.Next = time.UnixMilli(int64(next)).UTC()
	}
	return c, nil
}

// Crons lists owner's crons, the next to fire first.
func (q *Queue) Crons(ctx context.Context, owner string) ([]Cron, error) {
	cctx, cancel := q.call(ctx)
	ids, err := q.client.ZRange(cctx, q.cronsKey(), 0, -1).Result()
	cancel()
	if err != nil {
		return nil, fmt.Errorf("runs: crons: %w", err)
	}
	out := []Cron{}
	for _, id := range ids {
		c, err := q.readCron(ctx, id)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if c.Owner == owner {
			out = append(out, c)
		}
	}
	return out, nil
}

// DeleteCron removes owner's cron id; ErrNotFound if owner has none.
func (q *Queue) DeleteCron(ctx context.Context, owner, id string) error {
	c, err := q.readCron(ctx, id)
	if err != nil {
		return err
	}
	if c.Owner != owner {
		return ErrNotFound
	}
	cctx, cancel := q.call(ctx)
	defer cancel()
	pipe := q.client.TxPipeline()
	pipe.ZRem(cctx, q.cronsKey(), id)
	pipe.Del(cctx, q.cronKey(id))
	if _, err := pipe.Exec(cctx); err != nil {
		return fmt.Errorf("runs: delete cron %s: %w", id, err)
	}
	return nil
}

// advanceScript moves a cron's next tick from the one the caller saw to
// the next, and says whether it did: of the replicas that saw the tick due,
// exactly one moves it, and that one fires. KEYS: the crons set. ARGV: id,
// the tick seen (ms), the next tick (ms).
var advanceScript = redis.NewScript(`
local s = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not s or tonumber(s) ~= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
return 1
`)

// FireDue submits a run for each cron whose tick is due at now, and returns
// the runs submitted. A cron whose ticks were missed (every replica down)
// fires once, and its next tick is the first after now. Its run id is the
// cron's and the tick's, so that a tick is one run whatever races.
func (q *Queue) FireDue(ctx context.Context, now time.Time) ([]Run, error) {
	cctx, cancel := q.call(ctx)
	due, err := q.client.ZRangeByScoreWithScores(cctx, q.cronsKey(), &redis.ZRangeBy{Min: "-inf", Max: strconv.FormatInt(now.UnixMilli(), 10), Count: 100}).Result()
	cancel()
	if err != nil {
		return nil, fmt.Errorf("runs: due crons: %w", err)
	}
	var fired []Run
	for _, z := range due {
		id, _ := z.Member.(string)
		c, err := q.readCron(ctx, id)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return fired, err
		}
		sched, err := ParseSchedule(c.Schedule)
		if err != nil {
			return fired, err
		}
		tick := int64(z.Score)
		cctx, cancel := q.call(ctx)
		won, err := advanceScript.Run(cctx, q.client, []string{q.cronsKey()}, id, tick, sched.Next(now).UnixMilli()).Int()
		cancel()
		if err != nil {
			return fired, fmt.Errorf("runs: cron %s: %w", id, err)
		}
		if won == 0 {
			continue // another replica fired this tick
		}
		runID := id + ":" + strconv.FormatInt(tick, 10)
		spec := c.Spec
		if c.ThreadPrefix != "" {
			spec.Thread, spec.SessionID = c.ThreadPrefix+runID, runID
		}
		run, err := q.Submit(ctx, c.Owner, runID, spec)
		if err != nil {
			return fired, fmt.Errorf("runs: cron %s: %w", id, err)
		}
		fired = append(fired, run)
	}
	return fired, nil
}

// cronPoll is how often a worker looks for due crons.
const cronPoll = 500 * time.Millisecond

// fireCrons fires due crons until ctx is done.
func (w Worker) fireCrons(ctx context.Context, log zerolog.Logger) {
	tick := time.NewTicker(cronPoll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		fired, err := w.Queue.FireDue(ctx, time.Now())
		if err != nil && ctx.Err() == nil {
			log.Warn().Err(err).Msg("firing due crons failed; trying again")
		}
		for _, r := range fired {
			log.Info().Str("run", r.ID).Msg("cron fired")
		}
	}
}
