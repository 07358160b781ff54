package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/aws/aws-lambda-go/events"
)

func handler(ctx context.Context, event events.SQSEvent) (events.SQSEventResponse, error) {
	var failures []events.SQSBatchItemFailure
	for _, record := range event.Records {
		if err := process(record.Body); err != nil {
			failures = append(failures, events.SQSBatchItemFailure{ItemIdentifier: record.MessageId})
			return events.SQSEventResponse{BatchItemFailures: failures}, err
		}
	}
	return events.SQSEventResponse{BatchItemFailures: failures}, nil
}

func process(body string) error {
	var order map[string]any
	if err := json.Unmarshal([]byte(body), &order); err != nil {
		return err
	}
	fmt.Println(order["id"])
	return nil
}
