// What the worker does with a message's body.
export async function work(job) {
  console.log("processing job", job.id);
}
