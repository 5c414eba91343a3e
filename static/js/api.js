// REST calls. Every failure becomes an ApiError with the server's stable code and message.
import { getPlayer } from "./identity.js";

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

export async function api(method, path, body) {
  const headers = { Accept: "application/json" };
  const player = getPlayer();
  if (player) headers.Authorization = `Bearer ${player.token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiError("network", String(error && error.message ? error.message : error), 0);
  }
  let data = null;
  const text = await response.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!response.ok) {
    const err = data && data.error ? data.error : { code: "http_error", message: text || response.statusText };
    throw new ApiError(err.code, err.message, response.status);
  }
  return data;
}

export const get = (path) => api("GET", path);
export const post = (path, body) => api("POST", path, body === undefined ? {} : body);
export const patch = (path, body) => api("PATCH", path, body);
