import { describe, expect, it } from "vitest";
import { countLoginFailure, countRateLimitRefusal, observeRecognitionImage, observeRequest, registry, setRecognitionQueueLength } from "./metrics.server";

async function metric(name: string) {
  return registry.getSingleMetricAsString(name);
}

describe("the counters other modules call", () => {
  it("countLoginFailure and countRateLimitRefusal count by kind", async () => {
    countLoginFailure("student");
    countLoginFailure("student");
    countLoginFailure("operator");
    countRateLimitRefusal("comment");
    expect(await metric("campus_login_failures_total")).toMatch(/campus_login_failures_total\{kind="student"\} 2/);
    expect(await metric("campus_login_failures_total")).toMatch(/campus_login_failures_total\{kind="operator"\} 1/);
    expect(await metric("campus_rate_limit_refusals_total")).toMatch(/campus_rate_limit_refusals_total\{kind="comment"\} 1/);
  });

  it("request durations by method, route and status; recognition queue and time per image", async () => {
    observeRequest("GET", "/post/:id", 200, 0.03);
    expect(await metric("campus_http_request_duration_seconds")).toMatch(/campus_http_request_duration_seconds_count\{method="GET",route="\/post\/:id",status="200"\} 1/);
    setRecognitionQueueLength(4);
    expect(await metric("campus_recognition_queue_length")).toMatch(/campus_recognition_queue_length 4/);
    observeRecognitionImage(1.5);
    expect(await metric("campus_recognition_image_seconds")).toMatch(/campus_recognition_image_seconds_bucket\{le="2"\} 1/);
  });
});
