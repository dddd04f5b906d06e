/**
 * The API server's error shape: a `Status` object with a reason and code, worded
 * the way kube-apiserver words it so clients that parse messages behave the same.
 */
import type { ResourceType } from './resources.js';
import { qualifiedName } from './resources.js';

export interface StatusBody {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure';
  message: string;
  /** Left out when empty, as omitempty leaves it out (a webhook's refusal may name none). */
  reason?: string;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    causes?: { reason?: string; message: string; field?: string }[];
  };
  code: number;
}

/** An error answered as a Status object. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: StatusBody['details'],
  ) {
    super(message);
  }

  /** The wire form of this error. */
  toStatus(): StatusBody {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      ...(this.reason ? { reason: this.reason } : {}),
      ...(this.details ? { details: this.details } : {}),
      code: this.code,
    };
  }
}

function detailsOf(rt: ResourceType, name: string): StatusBody['details'] {
  return { name, ...(rt.group ? { group: rt.group } : {}), kind: rt.plural };
}

/** `deployments.apps "x" not found` */
export function notFound(rt: ResourceType, name: string): ApiError {
  return new ApiError(404, 'NotFound', `${qualifiedName(rt)} "${name}" not found`, detailsOf(rt, name));
}

/** `deployments.apps "x" already exists` */
export function alreadyExists(rt: ResourceType, name: string): ApiError {
  return new ApiError(
    409,
    'AlreadyExists',
    `${qualifiedName(rt)} "${name}" already exists`,
    detailsOf(rt, name),
  );
}

/** The optimistic-concurrency conflict message of kube-apiserver. */
export function conflict(rt: ResourceType, name: string): ApiError {
  return new ApiError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualifiedName(rt)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    detailsOf(rt, name),
  );
}

/** `Deployment.apps "x" is invalid: field: detail` (422). */
export function invalid(
  rt: ResourceType,
  name: string,
  causes: { field: string; message: string }[],
): ApiError {
  const group = rt.group ? `.${rt.group}` : '';
  const text = causes.map((c) => `${c.field}: ${c.message}`).join(', ');
  const message = causes.length > 1 ? `[${text}]` : text;
  return new ApiError(422, 'Invalid', `${rt.kind}${group} "${name}" is invalid: ${message}`, {
    name,
    ...(rt.group ? { group: rt.group } : {}),
    kind: rt.kind,
    causes: causes.map((c) => ({ reason: 'FieldValueInvalid', message: c.message, field: c.field })),
  });
}

/** 400 with a plain message. */
export function badRequest(message: string): ApiError {
  return new ApiError(400, 'BadRequest', message);
}

/** The RBAC denial message, used by fault injection. */
export function forbidden(
  verb: string,
  rt: ResourceType | undefined,
  namespace?: string,
  name?: string,
): ApiError {
  const resource = rt?.plural ?? 'unknown';
  const subject = name ? `${rt ? qualifiedName(rt) : resource} "${name}"` : rt ? qualifiedName(rt) : resource;
  const scope = namespace ? ` in the namespace "${namespace}"` : ' at the cluster scope';
  return new ApiError(
    403,
    'Forbidden',
    `${subject} is forbidden: User "system:serviceaccount:rollout-doctor:rollout-doctor" cannot ${verb} resource "${resource}" in API group "${rt?.group ?? ''}"${scope}`,
    { ...(name ? { name } : {}), ...(rt?.group ? { group: rt.group } : {}), kind: resource },
  );
}

/** Reason names for codes, as metav1.StatusReason. */
export function reasonForCode(code: number): string {
  const map: Record<number, string> = {
    400: 'BadRequest',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'NotFound',
    405: 'MethodNotAllowed',
    409: 'Conflict',
    410: 'Expired',
    415: 'UnsupportedMediaType',
    422: 'Invalid',
    429: 'TooManyRequests',
    500: 'InternalError',
    503: 'ServiceUnavailable',
    504: 'Timeout',
  };
  return map[code] ?? 'Unknown';
}
