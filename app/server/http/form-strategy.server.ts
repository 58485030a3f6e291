// The form-strategy pattern of remix-auth-form, for remix-auth v4: the strategy reads the posted
// form and hands it to the app's verify function, which validates it with the form's zod schema
// and checks the credentials. Our logins (the school account, the operators) are this shape.
import { Strategy } from "remix-auth/strategy";

export namespace FormStrategy {
  export interface VerifyOptions {
    /** The posted form (the strategy reads the request's body). */
    form: FormData;
    /** The request, for its cookies and headers (the session, the trusted-device cookie). */
    request: Request;
  }
}

export class FormStrategy<User> extends Strategy<User, FormStrategy.VerifyOptions> {
  constructor(
    readonly name: string,
    verify: Strategy.VerifyFunction<User, FormStrategy.VerifyOptions>,
  ) {
    super(verify);
  }

  async authenticate(request: Request): Promise<User> {
    const form = await request.formData();
    return this.verify({ form, request });
  }
}
