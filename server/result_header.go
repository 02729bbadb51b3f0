package server

import "net/http"

// resultHeader asks for the turn's structured result in the "sgrgraph"
// field of a completion (and of a stream's final chunk). It is opt-in: the
// result is some 30 KB of JSON per turn that an OpenAI client would read
// and throw away.
const resultHeader = "X-Sgrgraph-Result"

// wantsResult reads resultHeader: absent, or "full".
func wantsResult(r *http.Request) (bool, *apiError) {
	switch v := r.Header.Get(resultHeader); v {
	case "":
		return false, nil
	case "full":
		return true, nil
	default:
		return false, invalid(resultHeader, "invalid_value", "%s: %q is not known; send \"full\" for the structured result, or leave the header out", resultHeader, v)
	}
}
