// A worker whose requests SQS accepts.
package main

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

const jobs = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs"
const orders = "https://sqs.us-east-1.amazonaws.com/123456789012/orders.fifo"

func poll(ctx context.Context) error {
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		return err
	}
	client := sqs.NewFromConfig(cfg)
	for {
		out, err := client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{
			QueueUrl:            aws.String(jobs),
			WaitTimeSeconds:     20,
			MaxNumberOfMessages: 10,
		})
		if err != nil {
			return err
		}
		for _, m := range out.Messages {
			if _, err := client.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: aws.String(jobs), ReceiptHandle: m.ReceiptHandle}); err != nil {
				return err
			}
		}
	}
}

func send(ctx context.Context, id, body string) error {
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		return err
	}
	client := sqs.NewFromConfig(cfg)
	_, err = client.SendMessage(ctx, &sqs.SendMessageInput{
		QueueUrl:               aws.String(orders),
		MessageBody:            aws.String(body),
		MessageGroupId:         aws.String(id),
		MessageDeduplicationId: aws.String(id),
	})
	return err
}

func sendAll(ctx context.Context) (*sqs.SendMessageBatchOutput, error) {
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		return nil, err
	}
	client := sqs.NewFromConfig(cfg)
	return client.SendMessageBatch(ctx, &sqs.SendMessageBatchInput{
		QueueUrl: aws.String(jobs),
		Entries: []types.SendMessageBatchRequestEntry{
			{Id: aws.String("1"), MessageBody: aws.String("job")},
			{Id: aws.String("2"), MessageBody: aws.String("job")},
			{Id: aws.String("3"), MessageBody: aws.String("job")},
			{Id: aws.String("4"), MessageBody: aws.String("job")},
			{Id: aws.String("5"), MessageBody: aws.String("job")},
			{Id: aws.String("6"), MessageBody: aws.String("job")},
			{Id: aws.String("7"), MessageBody: aws.String("job")},
			{Id: aws.String("8"), MessageBody: aws.String("job")},
			{Id: aws.String("9"), MessageBody: aws.String("job")},
			{Id: aws.String("10"), MessageBody: aws.String("job")},
		},
	})
}

func main() { _ = poll(context.Background()) }
