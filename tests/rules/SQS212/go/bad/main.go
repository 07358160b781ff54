// A worker whose HTTP client gives up after 10 s on a 20 s long poll.
package main

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
)

const jobs = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs"

const timeout = 10 * time.Second

func poll(ctx context.Context) error {
	cfg, err := config.LoadDefaultConfig(ctx, config.WithHTTPClient(&http.Client{Timeout: timeout}))
	if err != nil {
		return err
	}
	client := sqs.NewFromConfig(cfg)
	for {
		out, err := client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{
			QueueUrl:            aws.String(jobs),
			MaxNumberOfMessages: 10,
			WaitTimeSeconds:     20,
		})
		if err != nil {
			return err
		}
		for _, m := range out.Messages {
			fmt.Println(aws.ToString(m.Body))
			if _, err := client.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: aws.String(jobs), ReceiptHandle: m.ReceiptHandle}); err != nil {
				return err
			}
		}
	}
}

func main() { _ = poll(context.Background()) }
