/*
 * Copyright 2013-2022 the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.awspring.cloud.sqs.listener.acknowledgement;

import io.awspring.cloud.sqs.CompletableFutures;
import io.awspring.cloud.sqs.MessageHeaderUtils;
import io.awspring.cloud.sqs.SqsAcknowledgementException;
import io.awspring.cloud.sqs.listener.QueueAttributes;
import io.awspring.cloud.sqs.listener.QueueAttributesAware;
import io.awspring.cloud.sqs.listener.SqsAsyncClientAware;
import io.awspring.cloud.sqs.listener.SqsHeaders;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.messaging.Message;
import org.springframework.util.Assert;
import org.springframework.util.StopWatch;
import software.amazon.awssdk.services.sqs.SqsAsyncClient;
import software.amazon.awssdk.services.sqs.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchResponse;

/**
 * {@link AcknowledgementExecutor} implementation for SQS queues. Handle the messages deletion, usually requested by an
 * {@link ExecutingAcknowledgementProcessor}.
 *
 * @author Tomaz Fernandes
 * @since 3.0
 * @see ExecutingAcknowledgementProcessor
 */
public class SqsAcknowledgementExecutor<T>
		implements AcknowledgementExecutor<T>, SqsAsyncClientAware, QueueAttributesAware {

	private static final Logger logger = LoggerFactory.getLogger(SqsAcknowledgementExecutor.class);

	private SqsAsyncClient sqsAsyncClient;

	private String queueUrl;

	private String queueName;

	@Override
	public void setQueueAttributes(QueueAttributes queueAttributes) {
		Assert.notNull(queueAttributes, "queueAttributes cannot be null");
		this.queueUrl = queueAttributes.getQueueUrl();
		this.queueName = queueAttributes.getQueueName();
	}

	@Override
	public void setSqsAsyncClient(SqsAsyncClient sqsAsyncClient) {
		Assert.notNull(sqsAsyncClient, "sqsAsyncClient cannot be null");
		this.sqsAsyncClient = sqsAsyncClient;
	}

	@Override
	public CompletableFuture<Void> execute(Collection<Message<T>> messagesToAck) {
		try {
			logger.debug("Executing acknowledgement for {} messages", messagesToAck.size());
			Assert.notEmpty(messagesToAck, () -> "empty collection sent to acknowledge in queue " + this.queueName);
			return deleteMessages(messagesToAck);
		}
		catch (Exception e) {
			return CompletableFutures.failedFuture(createAcknowledgementException(messagesToAck, e));
		}
	}

	private SqsAcknowledgementException createAcknowledgementException(Collection<Message<T>> messagesToAck,
			Throwable e) {
		return new SqsAcknowledgementException(
				"Error acknowledging messages " + MessageHeaderUtils.getId(messagesToAck), Collections.emptyList(),
				messagesToAck.stream().map(msg -> (Message<?>) msg).collect(Collectors.toList()), this.queueUrl, e);
	}

	// @formatter:off
	private CompletableFuture<Void> deleteMessages(Collection<Message<T>> messagesToAck) {
		logger.trace("Acknowledging messages for queue {}: {}", this.queueName,
				MessageHeaderUtils.getId(messagesToAck));
		StopWatch watch = new StopWatch();
		watch.start();
		List<Message<T>> orderedMessages = new ArrayList<>(messagesToAck);
		return CompletableFutures.exceptionallyCompose(this.sqsAsyncClient
			.deleteMessageBatch(createDeleteMessageBatchRequest(orderedMessages)).thenCompose(
					response -> handleDeleteMessageBatchResponse(orderedMessages, response)),
			t -> toAcknowledgementFailure(orderedMessages, t))
			.whenComplete((v, t) -> logAckResult(orderedMessages, t, watch));
	}

	private CompletableFuture<Void> handleDeleteMessageBatchResponse(List<Message<T>> messagesToAck,
			DeleteMessageBatchResponse response) {
		if (!response.failed().isEmpty()) {
			return CompletableFutures.<Void>failedFuture(createPartialFailureException(messagesToAck, response));
		}
		return CompletableFuture.<Void>completedFuture(null);
	}

	private CompletableFuture<Void> toAcknowledgementFailure(Collection<Message<T>> messagesToAck, Throwable throwable) {
		Throwable cause = throwable instanceof CompletionException && throwable.getCause() != null ? throwable.getCause()
				: throwable;
		if (cause instanceof SqsAcknowledgementException) {
			return CompletableFutures.<Void>failedFuture(cause);
		}
		return CompletableFutures.<Void>failedFuture(createAcknowledgementException(messagesToAck, cause));
	}

	private SqsAcknowledgementException createPartialFailureException(List<Message<T>> messages,
			DeleteMessageBatchResponse response) {
		Set<Integer> failedIndices = new HashSet<>();
		boolean allIdsCorrelated = true;
		for (BatchResultErrorEntry errorEntry : response.failed()) {
			Integer index = parseBatchEntryIndex(errorEntry.id());
			if (index == null || index < 0 || index >= messages.size()) {
				allIdsCorrelated = false;
				break;
			}
			failedIndices.add(index);
		}

		if (!allIdsCorrelated) {
			Set<String> rawFailedIds = response.failed().stream()
					.map(BatchResultErrorEntry::id)
					.collect(Collectors.toSet());
			logger.warn("Could not correlate all acknowledgement failure ids in queue {}: {}", this.queueName,
					rawFailedIds);
			return new SqsAcknowledgementException("Could not correlate acknowledgement failure ids: " + rawFailedIds,
					Collections.emptyList(), messages.stream().map(msg -> (Message<?>) msg).collect(Collectors.toList()),
					this.queueUrl, null);
		}

		List<Message<?>> successfulMessages = new ArrayList<>();
		List<Message<?>> failedMessages = new ArrayList<>();

		for (int i = 0; i < messages.size(); i++) {
			if (failedIndices.contains(i)) {
				failedMessages.add(messages.get(i));
			} else {
				successfulMessages.add(messages.get(i));
			}
		}

		Set<String> failedMessageIds = failedMessages.stream()
				.map(MessageHeaderUtils::getId)
				.collect(Collectors.toSet());
		logger.warn("Some messages could not be acknowledged in queue {}: {}", this.queueName, failedMessageIds);

		return new SqsAcknowledgementException("Error acknowledging messages " + failedMessageIds, successfulMessages,
				failedMessages, this.queueUrl, null);
	}

	private Integer parseBatchEntryIndex(String id) {
		try {
			return Integer.valueOf(id);
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	private DeleteMessageBatchRequest createDeleteMessageBatchRequest(List<Message<T>> messagesToAck) {
		List<DeleteMessageBatchRequestEntry> entries = new ArrayList<>(messagesToAck.size());
		for (int i = 0; i < messagesToAck.size(); i++) {
			entries.add(toDeleteMessageEntry(messagesToAck.get(i), i));
		}
		return DeleteMessageBatchRequest.builder().queueUrl(this.queueUrl).entries(entries).build();
	}

	// Positional index keeps the batch-local id unique even when SQS redelivers the same message id.
	private DeleteMessageBatchRequestEntry toDeleteMessageEntry(Message<T> message, int index) {
		return DeleteMessageBatchRequestEntry
			.builder()
			.receiptHandle(MessageHeaderUtils.getHeaderAsString(message, SqsHeaders.SQS_RECEIPT_HANDLE_HEADER))
			.id(Integer.toString(index))
			.build();
	}
	// @formatter:on

	private void logAckResult(Collection<Message<T>> messagesToAck, Throwable t, StopWatch watch) {
		watch.stop();
		long totalTimeMillis = watch.getTotalTimeMillis();
		if (totalTimeMillis > 10000) {
			logger.warn("Acknowledgement operation took {}ms to finish in queue {} for messages {}", totalTimeMillis,
					this.queueName, MessageHeaderUtils.getId(messagesToAck));
		}
		if (t != null) {
			logger.error("Error acknowledging in queue {} messages {} in {}ms", this.queueName,
					MessageHeaderUtils.getId(messagesToAck), totalTimeMillis,
					t instanceof CompletionException ? t.getCause() : t);
		}
		else {
			logger.trace("Done acknowledging in queue {} messages: {} in {}ms", this.queueName,
					MessageHeaderUtils.getId(messagesToAck), totalTimeMillis);
		}
	}

}
