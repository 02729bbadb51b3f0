package agent

import (
	"context"
	"fmt"
	"reflect"

	"github.com/cloudwego/eino/components/model"

	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/guards/safety"
	"github.com/sgrgraph/sgrgraph/models/offline"
	"github.com/sgrgraph/sgrgraph/models/openai"
	"github.com/sgrgraph/sgrgraph/outbound"
)

// newModels makes the configured planner and answerer; one model serves
// both unless the configuration gives the roles different endpoints.
func (a *Agent) newModels(ctx context.Context) (planner, answerer model.BaseChatModel, err error) {
	cfg := a.cfg
	if cfg.Model.Provider == "offline" {
		m := offline.New(offline.Options{Corpus: a.knowledge.Corpus(), Product: cfg.Product, Language: cfg.Language})
		return m, m, nil
	}
	sgr, agent := cfg.Model.For("sgr"), cfg.Model.For("agent")
	if planner, err = newOpenAI(ctx, sgr, cfg.Model); err != nil {
		return nil, nil, err
	}
	if reflect.DeepEqual(sgr, agent) {
		return planner, planner, nil
	}
	answerer, err = newOpenAI(ctx, agent, cfg.Model)
	return planner, answerer, err
}

func newOpenAI(ctx context.Context, e config.Endpoint, m config.Model) (model.BaseChatModel, error) {
	return openai.New(ctx, OpenAIConfig(e, m))
}

// OpenAIConfig is the provider configuration of one endpoint of the model.
func OpenAIConfig(e config.Endpoint, m config.Model) openai.Config {
	c := openai.Config{BaseURL: e.BaseURL, APIKey: e.APIKey, Model: e.Name, MaxTokens: e.MaxTokens,
		Headers: e.Headers, ForcedToolChoice: e.ForcedToolChoice, Retry: policy(m.Retry)}
	if c.BaseURL == "" {
		c.BaseURL = config.DefaultOpenAIBaseURL
	}
	if e.Temperature != nil {
		t := float32(*e.Temperature)
		c.Temperature = &t
	}
	return c
}

func policy(r config.Retry) outbound.Policy {
	return outbound.Policy{Attempts: r.Attempts, BaseDelay: r.BaseDelay, MaxDelay: r.MaxDelay}
}

// NewClassifier makes the configured safety classifier. A remote guard's
// client carries the guard's timeout and retry policy.
func NewClassifier(g config.Guard) (safety.Classifier, error) {
	switch g.Provider {
	case safety.ProviderMosec:
		return safety.Mosec{Endpoint: g.URL, Client: outbound.Client("guard", policy(g.Retry), nil, g.Timeout)}, nil
	case safety.ProviderOpenAI:
		return safety.OpenAIGuard{BaseURL: g.URL, Model: g.Model, APIKey: g.APIKey,
			Client: outbound.Client("guard", policy(g.Retry), nil, g.Timeout)}, nil
	}
	if g.Lexicon != "" {
		c, err := safety.NewRulesFromFile(g.Lexicon)
		if err != nil {
			return nil, fmt.Errorf("guard.lexicon: %w", err)
		}
		return c, nil
	}
	return safety.NewDefaultRules()
}
