package guards

import (
	"errors"
	"fmt"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// Config is the guardian section of the configuration: the numbers of the
// evidence rules, the answer contract and the query policy.
type Config struct {
	QualityMinItems   int      `yaml:"quality_min_items"`
	QualityMinSources int      `yaml:"quality_min_sources"`
	MinAvgConfidence  float64  `yaml:"min_avg_confidence"`
	FastMinItems      int      `yaml:"fast_min_items"`
	RequiredSections  []string `yaml:"required_sections"`
	ForbiddenContent  []string `yaml:"forbidden_content"`
	DomainTerms       []string `yaml:"domain_terms"`
	// Policy is the query policy (L0), checked at the door and again with
	// the request type before the verdict.
	Policy Policy `yaml:"policy"`
	// HumanReview sends a draft to a person before it goes out: "fail" (the
	// Guardian failed it) and/or "controversial" (the guard found the
	// request Controversial). Empty: no one is asked.
	HumanReview []string `yaml:"human_review"`
}

// Validate names each key outside its limits.
func (c Config) Validate() error {
	errs := unjoin(c.EvidenceRules().Validate())
	if _, err := CompilePolicy(c.Policy); err != nil {
		errs = append(errs, fmt.Errorf("policy.%w", err))
	}
	for i, on := range c.HumanReview {
		if on != contracts.ReviewOnFail && on != contracts.ReviewOnControversial {
			errs = append(errs, fmt.Errorf("human_review[%d]: %q is not fail or controversial", i, on))
		}
	}
	return errors.Join(errs...)
}

// EvidenceRules are the seed's source rules with the configured numbers.
func (c Config) EvidenceRules() EvidenceRules {
	r := DefaultEvidenceRules()
	r.QualityMinItems, r.QualityMinSources, r.MinAvgConfidence, r.FastMinItems =
		c.QualityMinItems, c.QualityMinSources, c.MinAvgConfidence, c.FastMinItems
	return r
}

// Contract is the answer contract the configuration asks of every answer.
func (c Config) Contract() contracts.ArchitectSpec {
	return contracts.ArchitectSpec{ResponseFormat: "markdown", RequiredSections: c.RequiredSections,
		ForbiddenContent: c.ForbiddenContent, DomainTerms: c.DomainTerms}
}

// CompiledPolicy is the configured query policy, checked; an empty one is
// nil, so a turn without a policy pays nothing for it.
func (c Config) CompiledPolicy() (*QueryPolicy, error) {
	p := c.Policy
	if len(p.ForbiddenTopics) == 0 && len(p.ForbiddenExpressions) == 0 && len(p.DeniedRequestTypes) == 0 {
		return nil, nil
	}
	q, err := CompilePolicy(p)
	if err != nil {
		return nil, fmt.Errorf("policy.%w", err)
	}
	return q, nil
}

// unjoin lists the errors a Validate joined.
func unjoin(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}
