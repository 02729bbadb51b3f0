package guards

import (
	"slices"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// SoleArticleSuffices says whether one article is enough evidence for the
// QUALITY track although the count asks for more: a small knowledge base
// may hold one article on a topic, and asking it for a second would only
// fail the turn after retries that cannot find one.
//
// It is decided by retrieval confidence, not by the count: a search ranked
// the article first, scoring at least SoleArticleConfidence, and judged its
// results likely relevant (a clear top score, seed 003 §4); the searches of
// the question's own words also ranked it first (onTheQuestion); and no
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
	ref := c.Evidence[best].Ref
	strong := slices.ContainsFunc(c.Searches, func(s contracts.QueryTrace) bool {
		return s.Confidence.LikelyRelevant && rankedFirst(ref, s, r.SoleArticleConfidence)
	})
	onQuestion := slices.ContainsFunc(c.Searches, func(s contracts.QueryTrace) bool {
		return s.Attempt == 0 && rankedFirst(ref, s, onTheQuestion)
	})
	if !strong || !onQuestion {
		return false
	}
	for i, e := range c.Evidence {
		if i != best && e.Confidence >= r.RelevanceThreshold {
			return false
		}
	}
	return true
}

// onTheQuestion is the score a search of the first attempt (the plan's,
// made from the question's words) must rank the article first with. A
// score is at most the share of the search's words the article holds, so
// the article holds at least two of five of the question's words. A
// retry's search of one word finds an article strongly for that word
// alone: in a knowledge base of one article about a router, "router" does
// whatever was asked, and "How do I set up parental controls on the
// router?" would pass with a quote about firmware (its first search,
// "set parental controls router", scores the article 0.27).
const onTheQuestion = 0.4

// rankedFirst: the search did not fail and ranked the article first,
// scoring it at least bar.
func rankedFirst(ref string, s contracts.QueryTrace, bar float64) bool {
	return s.Error == "" && len(s.Articles) > 0 && s.Articles[0].KBID == ref && s.Articles[0].Score >= bar
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
