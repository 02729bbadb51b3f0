package runs

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/rs/zerolog"
)

// WebhookDelivery is what became of a run's webhook, as the run records it.
type WebhookDelivery struct {
	URL string `json:"url"`
	// Attempts counts the POSTs made; LastStatus is the last one's HTTP
	// status (0: no answer), LastError why it failed.
	Attempts   int        `json:"attempts"`
	LastStatus int        `json:"last_status,omitempty"`
	LastError  string     `json:"last_error,omitempty"`
	Delivered  *time.Time `json:"delivered_at,omitempty"`
}

// Webhooks tune how a Worker delivers the webhooks of finished runs; zero
// values take the defaults named.
type Webhooks struct {
	// Hosts are where webhooks may go (the zero value: loopback only).
	Hosts WebhookHosts
	// Attempts bounds the POSTs of one delivery (default 5); Backoff is
	// the wait after the first failure, doubling after each (default 1 s,
	// at most 1 minute); Timeout bounds one POST (default 10 s).
	Attempts int
	Backoff  time.Duration
	Timeout  time.Duration
}

func (o Webhooks) withDefaults() Webhooks {
	o.Attempts = cmp.Or(o.Attempts, 5)
	o.Backoff = cmp.Or(o.Backoff, time.Second)
	o.Timeout = cmp.Or(o.Timeout, 10*time.Second)
	return o
}

// webhookGroup is the consumer group of the workers that deliver webhooks.
const webhookGroup = "webhooks"

// webhookClaim is how long a delivery may go without its worker acking it
// before another worker takes it over: longer than every attempt and
// backoff of one delivery take.
const webhookClaim = 10 * time.Minute

func (q *Queue) webhookStream() string { return q.opts.Prefix + "webhooks" }

// deliverWebhooks posts the webhooks of runs that finished, as their ends
// are recorded, until ctx is done. A delivery is acknowledged once it
// succeeded or ran out of attempts; one cut by the worker's stop or death
// is taken over by another worker after webhookClaim: at least once.
func (w Worker) deliverWebhooks(ctx context.Context) {
	o := w.Webhooks.withDefaults()
	log := w.Log.With().Str("part", "webhooks").Logger()
	slots := make(chan struct{}, 4)
	var inHand sync.WaitGroup
	defer inHand.Wait()
	cursor, failures := "0-0", 0
	for ctx.Err() == nil {
		msg, err := w.nextWebhook(ctx, &cursor)
		if err != nil {
			failures++
			log.Warn().Err(err).Int("failures", failures).Msg("reading the webhook queue failed; retrying")
			sleep(ctx, backoff(failures))
			continue
		}
		failures = 0
		if msg == nil {
			continue
		}
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			return
		}
		inHand.Go(func() {
			defer func() { <-slots }()
			w.deliver(ctx, o, log, *msg)
		})
	}
}

func (w Worker) nextWebhook(ctx context.Context, cursor *string) (*redis.XMessage, error) {
	q := w.Queue
	cctx, cancel := q.call(ctx)
	msgs, start, err := q.client.XAutoClaim(cctx, &redis.XAutoClaimArgs{Stream: q.webhookStream(), Group: webhookGroup,
		Consumer: w.Name, MinIdle: webhookClaim, Start: *cursor, Count: 1}).Result()
	cancel()
	if err != nil {
		return nil, fmt.Errorf("claim: %w", err)
	}
	*cursor = start
	if len(msgs) > 0 {
		return &msgs[0], nil
	}
	block := min(2*time.Second, q.opts.Claim/2) // as the runs' read: a stopping worker waits no longer
	rctx, cancel := context.WithTimeout(ctx, q.opts.Timeout+block)
	defer cancel()
	streams, err := q.client.XReadGroup(rctx, &redis.XReadGroupArgs{Group: webhookGroup, Consumer: w.Name,
		Streams: []string{q.webhookStream(), ">"}, Count: 1, Block: block}).Result()
	switch {
	case errors.Is(err, redis.Nil), ctx.Err() != nil:
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("read: %w", err)
	}
	for _, st := range streams {
		if len(st.Messages) > 0 {
			return &st.Messages[0], nil
		}
	}
	return nil, nil
}

// deliver posts one run's result to its webhook until a 2xx answer or
// the last attempt, recording each attempt in the run.
func (w Worker) deliver(ctx context.Context, o Webhooks, log zerolog.Logger, msg redis.XMessage) {
	q := w.Queue
	id, _ := msg.Values["run"].(string)
	log = log.With().Str("run", id).Logger()
	ack := func() {
		cctx, cancel := q.call(context.WithoutCancel(ctx))
		defer cancel()
		if err := q.client.XAck(cctx, q.webhookStream(), webhookGroup, msg.ID).Err(); err != nil {
			log.Warn().Err(err).Msg("acknowledging a webhook delivery failed; it may be sent again")
		}
	}
	if CheckID(id) != nil {
		ack()
		return
	}
	cctx, cancel := q.call(ctx)
	h, err := q.client.HGetAll(cctx, q.runKey(id)).Result()
	cancel()
	if err != nil {
		log.Warn().Err(err).Msg("reading a run for its webhook failed; another attempt later")
		return
	}
	if len(h) == 0 {
		log.Warn().Msg("the run expired before its webhook was delivered")
		ack()
		return
	}
	run, err := runOf(id, h)
	if err != nil || run.Spec.Webhook == "" || run.Webhook == nil || run.Webhook.Delivered != nil {
		ack()
		return
	}
	run.Webhook = nil // the payload is the run's end, not its delivery
	body, err := json.Marshal(struct {
		Object string `json:"object"`
		Run
	}{"run", run})
	if err != nil {
		log.Error().Err(err).Msg("a run's webhook payload could not be encoded")
		ack()
		return
	}
	attempts, _ := strconv.Atoi(h["webhook_attempts"])
	for attempts < o.Attempts {
		if ctx.Err() != nil {
			return // left pending: another worker goes on after webhookClaim
		}
		attempts++
		status, perr := w.post(ctx, o, run.Spec.Webhook, run.Spec.WebhookSecret, id, body)
		fields := []any{"webhook_attempts", attempts, "webhook_status", status, "webhook_error", ""}
		if perr != nil {
			fields[5] = perr.Error()
		} else {
			fields = append(fields, "webhook_delivered", time.Now().UnixMilli())
		}
		rctx, cancel := q.call(context.WithoutCancel(ctx))
		if err := q.client.HSet(rctx, q.runKey(id), fields...).Err(); err != nil {
			log.Warn().Err(err).Msg("recording a webhook attempt failed")
		}
		cancel()
		if perr == nil {
			log.Info().Int("attempt", attempts).Int("status", status).Msg("webhook delivered")
			ack()
			return
		}
		log.Warn().Err(perr).Int("attempt", attempts).Int("status", status).Msg("webhook attempt failed")
		if attempts < o.Attempts {
			sleep(ctx, min(o.Backoff<<(attempts-1), time.Minute))
		}
	}
	log.Error().Int("attempts", attempts).Msg("webhook not delivered: out of attempts; the run's result stays readable")
	ack()
}

// post sends one attempt: the signed body, without following redirects,
// through no proxy, to an address the hosts rule allows after DNS.
func (w Worker) post(ctx context.Context, o Webhooks, target, secret, id string, body []byte) (status int, err error) {
	if err := o.Hosts.CheckURL(target); err != nil {
		return 0, err
	}
	u, _ := url.Parse(target)
	check := o.Hosts.dialControl(u.Hostname())
	dialer := &net.Dialer{Timeout: o.Timeout, Control: func(network, address string, c syscall.RawConn) error { return check(network, address, c) }}
	client := &http.Client{
		Timeout:   o.Timeout,
		Transport: &http.Transport{Proxy: nil, DialContext: dialer.DialContext, DisableKeepAlives: true, TLSHandshakeTimeout: o.Timeout, ResponseHeaderTimeout: o.Timeout},
		// A redirect could lead anywhere, the network inside included.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return 0, fmt.Errorf("webhook: %w", err)
	}
	ts := time.Now().Unix()
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "sgrgraph-webhook")
	req.Header.Set(WebhookTimestampHeader, strconv.FormatInt(ts, 10))
	req.Header.Set(WebhookSignatureHeader, SignWebhook(secret, ts, body))
	req.Header.Set(WebhookIDHeader, id)
	res, err := client.Do(req)
	if err != nil {
		return 0, fmt.Errorf("webhook: %w", err)
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return res.StatusCode, fmt.Errorf("webhook: the receiver answered %s", res.Status)
	}
	return res.StatusCode, nil
}
