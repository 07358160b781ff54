package com.example;

// A worker whose HTTP client listens longer than its 20 s long poll.

import java.time.Duration;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.*;

public class Worker {
    private static final String JOBS = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs";
    private final SqsClient sqs = SqsClient.builder()
        .httpClient(ApacheHttpClient.builder().socketTimeout(Duration.ofSeconds(30)).build())
        .build();

    public void poll() {
        while (true) {
            ReceiveMessageRequest request = ReceiveMessageRequest.builder()
                .queueUrl(JOBS)
                .waitTimeSeconds(20)
                .maxNumberOfMessages(10)
                .build();
            for (Message message : sqs.receiveMessage(request).messages()) {
                System.out.println(message.body());
                sqs.deleteMessage(DeleteMessageRequest.builder().queueUrl(JOBS).receiptHandle(message.receiptHandle()).build());
            }
        }
    }
}
