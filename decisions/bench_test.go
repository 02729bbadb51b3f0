package decisions

import "testing"

func BenchmarkEvaluateDT002(b *testing.B) {
	s, _ := Standard(DefaultConfig())
	dt, _ := s.Get("DT-002")
	in := map[string]any{"spam_score": 0.2, "intent_confidence": 0.9, "guardian_level": "Safe"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := dt.Evaluate(in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEvaluateVerdict(b *testing.B) {
	s, _ := Standard(DefaultConfig())
	dt, _ := s.Get("DT-005")
	in := map[string]any{"policy_ok": true, "evidence_ok": true, "evidence_items": 2, "retry_useful": true, "contract_ok": true, "track": "QUALITY", "retry_count": 0}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := dt.Evaluate(in); err != nil {
			b.Fatal(err)
		}
	}
}
