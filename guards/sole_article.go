package guards

import "github.com/sgrgraph/sgrgraph/contracts"

// SoleArticleSuffices says whether one article is enough evidence for the
// QUALITY track although the count asks for more: a small knowledge base
// may hold one article on a topic, and asking it for a second would only
// fail the turn after retries that cannot find one.
//
// It is decided by retrieval confidence, not by the count: the best item
// scores at least SoleArticleConfidence, the search that found it judged
// its results likely relevant (a clear top score, seed 003 §4), and no
// other item the searches returned reaches RelevanceThreshold. Searches
// return articles best first, so when everything besides the one article
// scores below the bar, the knowledge base has nothing more on the topic
// for those words.
func SoleArticleSuffices(c EvidenceCase, r EvidenceRules) bool {
	if r.SoleArticleConfidence <= 0 || len(c.Evidence) == 0 {
		return false
	}
	best := 0
	for i, e := range c.Evidence {
		if e.Confidence > c.Evidence[best].Confidence {
			best = i
		}
	}
	top := c.Evidence[best]
	if top.Confidence < r.SoleArticleConfidence || !foundByRelevantSearch(top, c.Searches) {
		return false
	}
	for i, e := range c.Evidence {
		if i != best && e.Confidence >= r.RelevanceThreshold {
			return false
		}
	}
	return true
}

// foundByRelevantSearch: a search of the same tool and query that found
// the item judged its results likely relevant.
func foundByRelevantSearch(e contracts.EvidenceItem, searches []contracts.QueryTrace) bool {
	for _, s := range searches {
		if s.Tool == e.Tool && s.Query == e.Query && s.Error == "" && s.Confidence.LikelyRelevant {
			return true
		}
	}
	return false
}

// RetryCanFindMore says whether another attempt could bring evidence the
// turn lacks. The first retry may: other words can find what the first
// searches did not. A later one may when the retry before it found
// something new, or did not search at all (it has not looked yet); a
// retry that searched and found only what the turn already had shows that
// searching again finds the same articles, and another attempt would only
// repeat the draft.
func RetryCanFindMore(ev []contracts.EvidenceItem, searches []contracts.QueryTrace, retryCount int) bool {
	if retryCount == 0 {
		return true
	}
	for _, e := range ev {
		if e.Attempt == retryCount {
			return true
		}
	}
	for _, s := range searches {
		if s.Attempt == retryCount {
			return false
		}
	}
	return true
}
