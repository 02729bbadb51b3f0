package tests

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/runs"
)

// jsBlock is a js block of a document.
var jsBlock = regexp.MustCompile("(?s)```js\n(.*?)```")

// TestDocsWebhookCheckInNode runs docs/platform.md's Node check of a
// webhook's signature with node, on a delivery signed as the server signs
// it: it must accept it, and refuse one signed under another key.
func TestDocsWebhookCheckInNode(t *testing.T) {
	node, err := exec.LookPath("node")
	require.NoError(t, err, "the docs' Node snippet runs in node (Node 20 or later)")
	data, err := os.ReadFile("../docs/platform.md")
	require.NoError(t, err)
	m := jsBlock.FindStringSubmatch(string(data))
	require.NotNil(t, m, "docs/platform.md has its js block")

	body := `{"id":"r1","status":"done"}`
	ts := time.Now().Unix()
	check := func(signedWith string) string {
		sig := runs.SignWebhook(runs.WebhookSecret(signedWith), ts, []byte(body))
		script := "const crypto = require('crypto');\n" +
			"const apiKey = " + strconv.Quote("the key that submitted the run") + ";\n" +
			"const ts = " + strconv.FormatInt(ts, 10) + ";\n" +
			"const body = " + strconv.Quote(body) + ";\n" +
			"const sig = " + strconv.Quote(sig) + ";\n" +
			m[1] + "console.log(ok);\n"
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, node, "-e", script).CombinedOutput()
		require.NoError(t, err, "%s", out)
		return strings.TrimSpace(string(out))
	}
	assert.Equal(t, "true", check("the key that submitted the run"))
	assert.Equal(t, "false", check("another key"))
}
