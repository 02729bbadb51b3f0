package webui_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/sgrgraph/sgrgraph/webui"
)

// ExampleNew mounts the web chat beside an API of your own, as
// server.Options.UI does in sgrgraph serve: the page at GET /, its files
// at GET /ui/.
func ExampleNew() {
	ui, err := webui.New()
	if err != nil {
		panic(err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /{$}", ui)
	mux.Handle("GET /ui/", ui)
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, `{"object":"list"}`) })

	for _, path := range []string{"/", "/ui/app.js", "/ui/labels.json"} {
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		fmt.Println(path, rec.Code, rec.Header().Get("Content-Type"))
	}
	// Output:
	// / 200 text/html; charset=utf-8
	// /ui/app.js 200 text/javascript; charset=utf-8
	// /ui/labels.json 200 application/json
}
