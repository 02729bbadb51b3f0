package nodes

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/sgrtest"
)

func TestFinalize(t *testing.T) {
	f := newFixtures(t)
	restricted := &contracts.Verdict{Verdict: contracts.VerdictPass, RiskLevel: contracts.RiskMed, Reasons: []string{"no_evidence_fast_track"},
		RequiredActions: []contracts.RequiredAction{contracts.ActRestrictScope}}
	articles := []contracts.Article{{KBID: "guard", Title: "The guard", URL: "https://docs/guard"}, {KBID: "tables", Title: "Tables"}}
	var six []contracts.Article
	for _, id := range []string{"a", "b", "c", "d", "e", "f"} {
		six = append(six, contracts.Article{KBID: id, Title: id})
	}
	tests := []struct {
		name     string
		verdict  *contracts.Verdict
		draft    string
		language string
		articles []contracts.Article
		answer   string
		ui       []contracts.UIType
	}{
		{"only cited articles are listed", nil, "Set guard.mode [1].", "en", articles,
			"Set guard.mode [1].\n\nSources:\n[1] The guard — https://docs/guard", []contracts.UIType{contracts.UIAnswer, contracts.UISources}},
		{"no citation lists every article", nil, "Set guard.mode.", "en", articles,
			"Set guard.mode.\n\nSources:\n[1] The guard — https://docs/guard\n[2] Tables", []contracts.UIType{contracts.UIAnswer, contracts.UISources}},
		{"Russian heading; the one cited article is [1]", nil, "Ключ guard.mode [2].", "ru", articles,
			"Ключ guard.mode [1].\n\nИсточники:\n[1] Tables", []contracts.UIType{contracts.UIAnswer, contracts.UISources}},
		{"numbers without gaps, in the text and the list", nil, "Mode [3], tables [6] and [3] again; arr[9] is code.", "en", six,
			"Mode [1], tables [2] and [1] again; arr[9] is code.\n\nSources:\n[1] c\n[2] f", []contracts.UIType{contracts.UIAnswer, contracts.UISources}},
		{"no articles, no sources", nil, "Hello!", "en", nil, "Hello!", []contracts.UIType{contracts.UIAnswer}},
		{"a restricted PASS says the answer is not definitive", restricted, "Set guard.mode [1].", "en", articles[:1],
			"The knowledge base has little on this, so what follows covers only what it says and is not a definitive answer.\n\n" +
				"Set guard.mode [1].\n\nSources:\n[1] The guard — https://docs/guard", []contracts.UIType{contracts.UIAnswer, contracts.UISources}},
		{"in Russian too", restricted, "Ничего не найдено.", "ru", nil,
			"В базе знаний об этом мало сведений, поэтому ниже только то, что в ней сказано, а не окончательный ответ.\n\nНичего не найдено.",
			[]contracts.UIType{contracts.UIAnswer}},
		{"a clean PASS has no notice", &contracts.Verdict{Verdict: contracts.VerdictPass, RequiredActions: []contracts.RequiredAction{}},
			"Hello!", "en", nil, "Hello!", []contracts.UIType{contracts.UIAnswer}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := newState("q")
			in.Draft, in.Language, in.Articles, in.Verdict = tc.draft, tc.language, tc.articles, tc.verdict
			s, _, err := sgrtest.RunNode(context.Background(), FinalizeName, Finalize{Texts: f.texts, Language: "en"}.Node(), in)
			require.NoError(t, err)
			assert.Equal(t, tc.answer, s.Answer)
			var types []contracts.UIType
			for _, u := range s.UI {
				types = append(types, u.Type)
			}
			assert.Equal(t, tc.ui, types)
			assert.Equal(t, s.Answer[:len(s.UI[0].Content)], s.UI[0].Content, "the answer message carries the new numbers")
			assert.Len(t, s.Articles, len(tc.articles), "no article is lost")
			if tc.name == "numbers without gaps, in the text and the list" {
				var ids []string
				for _, a := range s.Articles {
					ids = append(ids, a.KBID)
				}
				assert.Equal(t, []string{"c", "f", "a", "b", "d", "e"}, ids, "the n-th article is the one [n] cites")
			}
		})
	}
}
