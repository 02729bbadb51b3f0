package runs_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"time"

	"github.com/sgrgraph/sgrgraph/runs"
)

// ExampleVerifyWebhook is a receiver's check of a delivery, as
// docs/platform.md shows it.
func ExampleVerifyWebhook() {
	apiKey, body := "the key that submitted the run", []byte(`{"id":"r1","status":"done"}`)
	r := delivery(apiKey, body)

	err := runs.VerifyWebhook(runs.WebhookSecret(apiKey), r.Header.Get("X-Sgrgraph-Timestamp"),
		r.Header.Get("X-Sgrgraph-Signature"), body, 5*time.Minute, time.Now())
	fmt.Println("signed by the key:", err == nil)

	err = runs.VerifyWebhook(runs.WebhookSecret("another key"), r.Header.Get("X-Sgrgraph-Timestamp"),
		r.Header.Get("X-Sgrgraph-Signature"), body, 5*time.Minute, time.Now())
	fmt.Println("signed by another key:", err == nil)
	// Output:
	// signed by the key: true
	// signed by another key: false
}

// delivery is a request signed as the server signs a webhook delivery.
func delivery(apiKey string, body []byte) *http.Request {
	now := time.Now().Unix()
	r := httptest.NewRequest(http.MethodPost, "/hook", bytes.NewReader(body))
	r.Header.Set(runs.WebhookTimestampHeader, strconv.FormatInt(now, 10))
	r.Header.Set(runs.WebhookSignatureHeader, runs.SignWebhook(runs.WebhookSecret(apiKey), now, body))
	return r
}
