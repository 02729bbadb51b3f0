package webui_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/webui"
)

func serveRequest(t *testing.T, method, path string, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	ui, err := webui.New()
	require.NoError(t, err)
	req := httptest.NewRequest(method, path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	ui.ServeHTTP(rec, req)
	return rec
}

func TestFiles(t *testing.T) {
	tests := []struct {
		path  string
		ctype string
		has   string // a piece of the body
	}{
		{"/", "text/html; charset=utf-8", `<script type="module" src="/ui/app.js"></script>`},
		{"/ui/app.js", "text/javascript; charset=utf-8", "streamTurn"},
		{"/ui/markdown.js", "text/javascript; charset=utf-8", "escapeHTML"},
		{"/ui/app.css", "text/css; charset=utf-8", ".badge-green"},
		{"/ui/icon.svg", "image/svg+xml", "<svg"},
		{"/ui/labels.json", "application/json", `"Analysis Summary"`},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			rec := serveRequest(t, http.MethodGet, tc.path)
			assert.Equal(t, http.StatusOK, rec.Code)
			assert.Equal(t, tc.ctype, rec.Header().Get("Content-Type"))
			assert.Contains(t, rec.Body.String(), tc.has)
			assert.Equal(t, "no-cache", rec.Header().Get("Cache-Control"))
		})
	}
}

// Every response, a 404 too, carries the headers that keep the page from
// running anything but its own files (item 2 of the web chat's issue).
func TestSecurityHeaders(t *testing.T) {
	for _, path := range []string{"/", "/ui/app.js", "/ui/nope.js"} {
		t.Run(path, func(t *testing.T) {
			h := serveRequest(t, http.MethodGet, path).Header()
			csp := h.Get("Content-Security-Policy")
			assert.Contains(t, csp, "default-src 'self'")
			assert.Contains(t, csp, "script-src 'self'")
			assert.Contains(t, csp, "frame-ancestors 'none'")
			assert.NotContains(t, csp, "unsafe-inline")
			assert.NotContains(t, csp, "unsafe-eval")
			assert.Equal(t, "nosniff", h.Get("X-Content-Type-Options"))
			assert.Equal(t, "DENY", h.Get("X-Frame-Options"))
			assert.Equal(t, "no-referrer", h.Get("Referrer-Policy"))
		})
	}
}

// The page has no inline script or style for the policy to refuse: each
// would be a page that works nowhere but here.
func TestPageHasNoInlineCode(t *testing.T) {
	body := serveRequest(t, http.MethodGet, "/").Body.String()
	assert.Equal(t, strings.Count(body, "<script"), strings.Count(body, `<script type="module" src="/ui/`), "every script is a file")
	assert.NotContains(t, body, "<style")
	assert.NotContains(t, body, "style=")
	assert.NotRegexp(t, `\son[a-z]+=`, body, "no inline event handler")
	assert.NotContains(t, body, "http://", "nothing from elsewhere: the page works offline")
	assert.NotContains(t, body, "https://")
}

func TestNotServed(t *testing.T) {
	tests := []struct {
		name   string
		method string
		path   string
		status int
	}{
		{"an unknown file", http.MethodGet, "/ui/nope.js", 404},
		{"the page by another name", http.MethodGet, "/ui/index.html", 404},
		{"a directory", http.MethodGet, "/ui/", 404},
		{"a path out of the assets", http.MethodGet, "/ui/../webui.go", 404},
		{"a POST", http.MethodPost, "/", 405},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.status, serveRequest(t, tc.method, tc.path).Code)
		})
	}
}

func TestUnchangedFileIsNotSentAgain(t *testing.T) {
	first := serveRequest(t, http.MethodGet, "/ui/app.js")
	etag := first.Header().Get("ETag")
	require.NotEmpty(t, etag)
	again := serveRequest(t, http.MethodGet, "/ui/app.js", "If-None-Match", etag)
	assert.Equal(t, http.StatusNotModified, again.Code)
	assert.Empty(t, again.Body.String())
}

func TestLabelsAreTheCatalogue(t *testing.T) {
	var labels map[string]map[string]string
	require.NoError(t, json.Unmarshal(serveRequest(t, http.MethodGet, "/ui/labels.json").Body.Bytes(), &labels))
	assert.Equal(t, "Retrieved Articles ({count})", labels["en"]["articles_heading"])
	assert.Equal(t, "Найденные статьи ({count})", labels["ru"]["articles_heading"])
	assert.Len(t, labels["ru"], len(labels["en"]))
}
