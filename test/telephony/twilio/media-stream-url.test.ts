// The media stream's address and per-call token, as the carrier writes them into TwiML and the bridge checks them.
import { expect } from 'chai';
import { connectStreamTwiml, mediaStreamToken, mediaStreamUrl, validMediaStreamToken } from '../../../server/src/telephony/twilio/media-stream.js';

describe('media stream URL and token', () => {
  it('puts the stream on wss for an https base URL and ws for an http one', () => {
    expect(mediaStreamUrl('https://svc.example.com/', 'c-1')).to.equal('wss://svc.example.com/twilio/media/c-1');
    expect(mediaStreamUrl('http://127.0.0.1:8080', 'c-1')).to.equal('ws://127.0.0.1:8080/twilio/media/c-1');
  });

  it('makes a token that holds for its call and secret only', () => {
    const token = mediaStreamToken('secret-a', 'call-1');
    expect(token).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(mediaStreamToken('secret-a', 'call-1')).to.equal(token);
    expect(validMediaStreamToken('secret-a', 'call-1', token)).to.equal(true);
    expect(validMediaStreamToken('secret-a', 'call-2', token)).to.equal(false);
    expect(validMediaStreamToken('secret-b', 'call-1', token)).to.equal(false);
    expect(validMediaStreamToken('secret-a', 'call-1', token.slice(0, -1))).to.equal(false);
    expect(validMediaStreamToken('secret-a', 'call-1', undefined)).to.equal(false);
  });

  it('writes TwiML that connects a stream carrying the token as a parameter, escaped', () => {
    const token = mediaStreamToken('s', 'c&1');
    expect(connectStreamTwiml('https://svc.example.com', 's', 'c&1')).to.equal(
      `<?xml version="1.0" encoding="UTF-8"?><Response><Connect><Stream url="wss://svc.example.com/twilio/media/c%261"><Parameter name="token" value="${token}"/></Stream></Connect></Response>`,
    );
  });
});
