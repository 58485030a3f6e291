// The review dialog (child route …/review): 1–5 stars, default 5, and an optional comment.
import { Form } from "@remix-run/react";
import { useState } from "react";
import { orderDialogs as orderDialogsMessages } from "~/lib/messages/order-dialogs";
import { DEFAULT_RATING, REVIEW_COMMENT_MAX } from "~/lib/order-limits";
import { fillTemplate } from "~/lib/template";
import { FormError } from "~/components/FieldError";
import { useSubmitting, type Base } from "./dialog-parts";
import { Sheet } from "~/components/ui/Sheet";

const msg = { orders: orderDialogsMessages };

export function ReviewDialog({ path, error }: Base) {
  const submitting = useSubmitting("review");
  const [rating, setRating] = useState(DEFAULT_RATING);
  const stars = msg.orders.reviewDialog.stars;
  return (
    <Sheet title={msg.orders.reviewDialog.title} closeTo={path}>
      <Form method="post" action={`${path}/review`} preventScrollReset className="space-y-3">
        <input type="hidden" name="intent" value="review" />
        <fieldset>
          <legend className="field-label">{msg.orders.reviewDialog.rating}</legend>
          <div className="flex items-center gap-1" onChange={(event) => setRating(Number((event.target as HTMLInputElement).value))}>
            {stars.map((text, index) => {
              const value = index + 1;
              return (
                <label key={value} className="cursor-pointer p-0.5" title={text}>
                  <input type="radio" name="rating" value={value} defaultChecked={value === DEFAULT_RATING} className="peer sr-only" aria-label={`${fillTemplate(msg.orders.reviewDialog.star, { count: value })} ${text}`} />
                  <span className={`block text-3xl leading-none peer-focus-visible:outline peer-focus-visible:outline-2 peer-focus-visible:outline-brand ${value <= rating ? "text-amber-400" : "text-slate-200"}`} aria-hidden="true">
                    ★
                  </span>
                </label>
              );
            })}
            <span className="ml-2 text-sm text-slate-600" data-testid="rating-text">
              {stars[rating - 1]}
            </span>
          </div>
        </fieldset>
        <label className="block">
          <span className="field-label">{msg.orders.reviewDialog.comment}</span>
          <textarea name="comment" rows={3} maxLength={REVIEW_COMMENT_MAX} placeholder={msg.orders.reviewDialog.commentPlaceholder} className="field-input text-sm" />
        </label>
        <FormError message={error} id="review-error" />
        <button type="submit" className="btn-primary h-11 w-full" disabled={submitting}>
          {msg.orders.reviewDialog.submit}
        </button>
      </Form>
    </Sheet>
  );
}
