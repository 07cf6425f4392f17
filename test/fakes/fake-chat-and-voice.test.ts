// The fake chat stream and the fake OpenAI voice as the benches drive them, through plain fetch so what is checked is
// the fakes' wire behaviour: a chat fake that answers every request from its body when no reply is queued, and
// records when each reply's last frame went out; a voice whose head comes at once and whose audio waits its delay.
import { expect } from 'chai';
import { startFakeChatStream, type FakeChatStream } from '../support/fake-chat-stream.js';
import { startFakeOpenAiSpeech, type FakeOpenAiSpeech } from '../support/fake-openai-speech.js';

const KEY = 'sk-fake-bench-3e7a1c9d5b2f';

describe('fake chat stream answering from the request', () => {
  let fake: FakeChatStream;
  afterEach(() => fake?.close());

  it('answers each request no queued reply is left for from its body, queued replies first', async () => {
    fake = await startFakeChatStream({ flavour: 'openai', apiKey: KEY, answer: (body) => ({ text: [`you said ${body.messages.at(-1).content}`] }) });
    fake.reply({ text: ['queued'] });
    const ask = async (content: string) => {
      const res = await fetch(`${fake.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content }] }),
      });
      const sse = await res.text();
      return [...sse.matchAll(/"content":"([^"]*)"/g)].map((m) => m[1]).join('');
    };
    expect([await ask('one'), await ask('two'), await ask('three')]).to.deep.equal(['queued', 'you said two', 'you said three']);
  });

  it("records when a reply's last frame was written, after the request came", async () => {
    fake = await startFakeChatStream({ flavour: 'openai', apiKey: KEY, answer: () => ({ text: ['a', 'b'], paceMs: 5 }) });
    const res = await fetch(`${fake.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect((await res.text()).endsWith('data: [DONE]\n\n')).to.equal(true);
    const [r] = fake.requests;
    expect(r!.endedAt).to.be.a('number');
    expect(r!.endedAt! >= r!.at).to.equal(true);
  });
});

describe('fake OpenAI voice with a time to first audio', () => {
  let fake: FakeOpenAiSpeech;
  afterEach(() => fake?.close());

  it('sends the head at once and holds the audio for its delay', async () => {
    fake = await startFakeOpenAiSpeech({ apiKey: KEY, firstAudioDelayMs: 60_000 });
    const abort = new AbortController();
    const res = await fetch(`${fake.baseUrl}/audio/speech`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini-tts', voice: 'alloy', input: 'Hello.', response_format: 'pcm' }),
      signal: abort.signal,
    });
    expect([res.status, res.headers.get('content-type'), fake.requests[0]!.sent, fake.events]).to.deep.equal([200, 'audio/pcm', 0, ['request 1']]);
    abort.abort();
  });
});
