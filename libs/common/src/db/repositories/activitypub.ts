/**
 * What speaking ActivityPub needs to remember (docs/federation.md, "ActivityPub"): each local
 * actor's own key pair (made on first need), the remote actors met by URL with the handle they
 * are known by here (`@preferredUsername@host`) and their inboxes, the URL of each remote object
 * held under an id of this API (`post:…@host`), the follows of URL-identified actors while they
 * wait for an Accept, and which HTTP signature format each peer asked for. Written over the
 * engine port (ADR 0013).
 */
import type { Collection, CollectionSpec, Engine } from '../engine/port';

export interface ActorKeyRecord {
  /** The local actor's id in this API (`@alice@domain`, `@domain` for the server). */
  _id: string;
  publicKeyPem: string;
  privateKeyPem: string;
  createdAt: Date;
}

export interface RemoteActorRecord {
  /** The actor's URL (its ActivityPub id). */
  _id: string;
  /** `@preferredUsername@host`: how this API names it. */
  handle: string;
  type: string;
  name: string | null;
  inbox: string;
  sharedInbox: string | null;
  followers: string | null;
  fetchedAt: Date;
}

export interface RemoteObjectRecord {
  /** The id this API gives it (`post:<hash>@host`). */
  _id: string;
  url: string;
}

export type FollowState = 'pending' | 'accepted' | 'rejected';

export interface ApFollowRecord {
  /** `<local id>><remote actor URL>`. */
  _id: string;
  localId: string;
  remoteUrl: string;
  state: FollowState;
  /** The Follow activity's id (an Accept or Reject names it). */
  activityId: string;
  updatedAt: Date;
}

export type SignatureScheme = 'draft-cavage' | 'rfc9421';

interface PeerRow {
  _id: string;
  /** An actor of this domain was met by URL: it speaks ActivityPub (unless its NodeInfo says Agora). */
  activityPub?: boolean;
  signature?: SignatureScheme;
  updatedAt: Date;
}

export const AP_ACTOR_KEYS: CollectionSpec = { name: 'ap_actor_keys', indexes: [], dates: ['createdAt'] };
export const AP_REMOTE_ACTORS: CollectionSpec = {
  name: 'ap_remote_actors',
  indexes: [{ fields: [['handle', 1]], unique: true, serves: 'byHandle: a remote actor by its handle' }],
  dates: ['fetchedAt'],
};
export const AP_REMOTE_OBJECTS: CollectionSpec = {
  name: 'ap_remote_objects',
  indexes: [{ fields: [['url', 1]], unique: true, serves: 'objectIdOf: the id given to a URL' }],
};
export const AP_FOLLOWS: CollectionSpec = {
  name: 'ap_follows',
  indexes: [
    { fields: [['activityId', 1]], serves: 'followByActivity: the Follow an Accept names' },
    {
      fields: [
        ['remoteUrl', 1],
        ['state', 1],
      ],
      serves: "followersHereOf: a remote actor's followers here",
    },
  ],
  dates: ['updatedAt'],
};
export const AP_PEERS: CollectionSpec = { name: 'ap_peers', indexes: [], dates: ['updatedAt'] };

export class ActivityPubStore {
  private readonly keys: Collection<ActorKeyRecord>;
  private readonly actors: Collection<RemoteActorRecord>;
  private readonly objects: Collection<RemoteObjectRecord & { _id: string }>;
  private readonly follows: Collection<ApFollowRecord>;
  private readonly peers: Collection<PeerRow>;

  constructor(engine: Engine) {
    this.keys = engine.collection<ActorKeyRecord>(AP_ACTOR_KEYS);
    this.actors = engine.collection<RemoteActorRecord>(AP_REMOTE_ACTORS);
    this.objects = engine.collection<RemoteObjectRecord>(AP_REMOTE_OBJECTS);
    this.follows = engine.collection<ApFollowRecord>(AP_FOLLOWS);
    this.peers = engine.collection<PeerRow>(AP_PEERS);
  }

  actorKey(actorId: string): Promise<ActorKeyRecord | null> {
    return this.keys.findOne({ _id: actorId });
  }

  /** Keeps the first key made for the actor: two replicas racing both read the same one after. */
  async putActorKey(key: ActorKeyRecord): Promise<ActorKeyRecord> {
    await this.keys.updateOne(
      { _id: key._id },
      {
        $setOnInsert: {
          publicKeyPem: key.publicKeyPem,
          privateKeyPem: key.privateKeyPem,
          createdAt: key.createdAt,
        },
      },
      { upsert: true },
    );
    return (await this.keys.findOne({ _id: key._id })) ?? key;
  }

  remoteActor(url: string): Promise<RemoteActorRecord | null> {
    return this.actors.findOne({ _id: url });
  }

  remoteActorByHandle(handle: string): Promise<RemoteActorRecord | null> {
    return this.actors.findOne({ handle: handle.toLowerCase() });
  }

  /** Records (or refreshes) a remote actor; its handle stays the one it was first given. */
  async putRemoteActor(actor: RemoteActorRecord): Promise<RemoteActorRecord> {
    const { _id, handle, ...fields } = actor;
    await this.actors.updateOne(
      { _id },
      { $set: fields, $setOnInsert: { handle: handle.toLowerCase() } },
      { upsert: true },
    );
    const domain = handle.slice(handle.lastIndexOf('@') + 1).toLowerCase();
    await this.peers.updateOne(
      { _id: domain },
      { $set: { activityPub: true, updatedAt: new Date() } },
      { upsert: true },
    );
    return (await this.actors.findOne({ _id })) ?? actor;
  }

  async objectIdOf(url: string): Promise<string | null> {
    return (await this.objects.findOne({ url }))?._id ?? null;
  }

  async objectUrlOf(id: string): Promise<string | null> {
    return (await this.objects.findOne({ _id: id }))?.url ?? null;
  }

  async putObject(id: string, url: string): Promise<void> {
    await this.objects.updateOne({ _id: id }, { $setOnInsert: { url } }, { upsert: true });
  }

  async putFollow(f: Omit<ApFollowRecord, '_id' | 'updatedAt'>): Promise<void> {
    await this.follows.updateOne(
      { _id: `${f.localId}>${f.remoteUrl}` },
      { $set: { ...f, updatedAt: new Date() } },
      { upsert: true },
    );
  }

  follow(localId: string, remoteUrl: string): Promise<ApFollowRecord | null> {
    return this.follows.findOne({ _id: `${localId}>${remoteUrl}` });
  }

  followByActivity(activityId: string): Promise<ApFollowRecord | null> {
    return this.follows.findOne({ activityId });
  }

  /** The local users whose Follow of the remote actor it accepted. */
  async followersHereOf(remoteUrl: string): Promise<string[]> {
    const rows = await this.follows.find({ remoteUrl, state: 'accepted' }, { limit: 10_000 });
    return rows.map((r) => r.localId);
  }

  async setFollowState(id: string, state: FollowState): Promise<void> {
    await this.follows.updateOne({ _id: id }, { $set: { state, updatedAt: new Date() } });
  }

  async dropFollow(localId: string, remoteUrl: string): Promise<void> {
    await this.follows.deleteOne({ _id: `${localId}>${remoteUrl}` });
  }

  async isActivityPubPeer(domain: string): Promise<boolean> {
    return (await this.peers.findOne({ _id: domain }))?.activityPub === true;
  }

  async signatureScheme(domain: string): Promise<SignatureScheme> {
    return (await this.peers.findOne({ _id: domain }))?.signature ?? 'draft-cavage';
  }

  async setSignatureScheme(domain: string, signature: SignatureScheme): Promise<void> {
    await this.peers.updateOne(
      { _id: domain },
      { $set: { signature, updatedAt: new Date() } },
      { upsert: true },
    );
  }
}
