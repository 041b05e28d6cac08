/** Shard sizes: a shard is one blob read, so these trade request cost against blob count. */
export const LAYOUT = {
  proteinsPerShard: 512,
  sequencesPerShard: 128,
  groupsPerShard: 256,
  familiesPerShard: 64,
  annotationsPerShard: 256,
  relationsPerShard: 128,
  pairsPerShard: 4096,
  pairDirectoryPerShard: 4096,
  hogListPerShard: 2048,
  profilesPerShard: 64,
  familyGoPerShard: 64,
  peptidesPerShard: 256,
  /** Gene trees (OrthoFinder releases): a tree of a few hundred genes is tens of kB. */
  geneTreesPerShard: 32,
  keysPerLeaf: 4096,
};
