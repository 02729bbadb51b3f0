package offline

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"

	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// requiredAction reads one "- ACTION: instruction" line of the Guardian's review.
var requiredAction = regexp.MustCompile(`(?m)^- ([A-Z_]+):`)

// actions are the required actions of a review.
func actions(review string) map[contracts.RequiredAction]bool {
	out := map[contracts.RequiredAction]bool{}
	for _, m := range requiredAction.FindAllStringSubmatch(review, -1) {
		out[contracts.RequiredAction(m[1])] = true
	}
	return out
}

// searchActions send the engine back to the knowledge base; the others
// are done on what it has already found.
var searchActions = []contracts.RequiredAction{contracts.ActRetrieveMore, contracts.ActAddEvidence,
	contracts.ActDiversifySources, contracts.ActRetrieveDoc, contracts.ActRefineQuery, contracts.ActUseDomainTerms}

// wantsSearch: the review asks for more evidence, or names no action the
// engine knows to do without one.
func wantsSearch(acts map[contracts.RequiredAction]bool) bool {
	for _, a := range searchActions {
		if acts[a] {
			return true
		}
	}
	for _, a := range []contracts.RequiredAction{contracts.ActRegenerateDraft, contracts.ActRestrictScope,
		contracts.ActAddRequiredSections, contracts.ActAskMinimalQuestion, contracts.ActSafeRefusal, contracts.ActRemoveForbiddenContent} {
		if acts[a] {
			return false
		}
	}
	return true
}

// askedQueries are the queries this turn's searches have made.
func askedQueries(in []*schema.Message, start int) map[string]bool {
	out := map[string]bool{}
	for _, m := range in[start+1:] {
		for _, c := range m.ToolCalls {
			if c.Function.Name != searchTool {
				continue
			}
			var args struct {
				Query string `json:"query"`
			}
			if json.Unmarshal([]byte(c.Function.Arguments), &args) == nil {
				out[strings.ToLower(args.Query)] = true
			}
		}
	}
	return out
}

// retryQueries are new queries for a retry: each significant word of the
// request on its own, longest first, then each pair of neighbouring words,
// then the named article's other sections; none this turn has made
// already, so a retry finds what the first attempt did not look for.
// Refining (REFINE_QUERY, USE_DOMAIN_TERMS) starts with the pairs, the
// more specific queries. Empty when every one was made.
func (e *Engine) retryQueries(t turn, asked map[string]bool, acts map[contracts.RequiredAction]bool) []string {
	var words []string
	seen := map[string]bool{}
	for _, w := range contentWords(t.request) {
		if !seen[stem(w)] && !vagueWords[w] {
			seen[stem(w)] = true
			words = append(words, w)
		}
	}
	var pairs []string
	for i := 1; i < len(words); i++ {
		pairs = append(pairs, words[i-1]+" "+words[i])
	}
	single := append([]string(nil), words...)
	sort.SliceStable(single, func(i, j int) bool { return len([]rune(single[i])) > len([]rune(single[j])) })
	candidates := append(single, pairs...)
	if acts[contracts.ActRefineQuery] || acts[contracts.ActUseDomainTerms] {
		candidates = append(pairs, single...)
	}
	if title := e.namedTitle(words); title != "" {
		for _, s := range []string{"features specifications", "user guide", "warranty information", "return policy", "cautions"} {
			candidates = append(candidates, title+" "+s)
		}
	}
	var out []string
	for _, q := range candidates {
		if e.saysNothing(q) {
			continue
		}
		if !asked[strings.ToLower(q)] {
			asked[strings.ToLower(q)] = true
			out = append(out, q)
		}
		if len(out) == 3 {
			break
		}
	}
	return out
}

// previousDrafts are the answers this turn has given so far, oldest first.
func previousDrafts(in []*schema.Message, start int) []string {
	var out []string
	for _, m := range in[start+1:] {
		if m.Role == schema.Assistant && len(m.ToolCalls) == 0 && m.Content != "" && !contracts.Synthetic(m) {
			out = append(out, m.Content)
		}
	}
	return out
}

// saysNothing: every word of the search is one the knowledge base says
// nearly everywhere ("prometheus" in Prometheus's documentation) or one it
// never says ("wrote"): it finds every article alike, and which comes
// first hangs on how often each says the common word. "Who wrote
// Prometheus?", which no article answers, was answered from whichever.
func (e *Engine) saysNothing(query string) bool {
	for _, w := range strings.Fields(query) {
		s := stem(strings.ToLower(w))
		if _, said := e.topics.stems[s]; said && !e.topics.nearlyEverywhere(s) {
			return false
		}
	}
	return true
}
